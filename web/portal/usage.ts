/** Verifications per day by outcome over the last 30 days: a stacked bar chart with the same figures as a table. */
import { h } from "../common/dom.ts";
import { type PortalContext, table } from "./context.ts";
import { problemText, t, text } from "./text.ts";
import { OUTCOMES, type Outcome, type UsageRow } from "./wire.ts";

const DAYS = 30;
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 720;
const HEIGHT = 220;
const AXIS = 24;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** The window's days, oldest first, as `YYYY-MM-DD` in UTC. */
function windowDays(today = new Date()): string[] {
  return Array.from({ length: DAYS }, (_, index) => {
    const day = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (DAYS - 1 - index)),
    );
    return day.toISOString().slice(0, 10);
  });
}

/** Every app's counts of each day added together. */
function perDay(rows: UsageRow[], days: string[]): Map<string, Record<Outcome, number>> {
  const totals = new Map(
    days.map((day) => [day, Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>]),
  );
  for (const row of rows) {
    const day = totals.get(row.day);
    if (day) for (const outcome of OUTCOMES) day[outcome] += row[outcome];
  }
  return totals;
}

function chart(days: string[], totals: Map<string, Record<Outcome, number>>): SVGSVGElement {
  const most = Math.max(1, ...[...totals.values()].map((counts) => OUTCOMES.reduce((sum, o) => sum + counts[o], 0)));
  const slot = (WIDTH - AXIS) / days.length;
  const drawing = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT + 20}`,
    role: "img",
    "aria-labelledby": "usage-chart-title",
  });
  drawing.append(svg("title", { id: "usage-chart-title" }));
  (drawing.firstChild as SVGTitleElement).textContent = t("usage.chart", { days: DAYS });
  drawing.append(svg("line", { x1: AXIS, y1: HEIGHT, x2: WIDTH, y2: HEIGHT, class: "axis" }));
  const top = svg("text", { x: 0, y: 12, class: "axis-label" });
  top.textContent = String(most);
  drawing.append(top);
  days.forEach((day, index) => {
    let y = HEIGHT;
    const counts = totals.get(day);
    for (const outcome of OUTCOMES) {
      const count = counts?.[outcome] ?? 0;
      if (count === 0) continue;
      const height = (count / most) * (HEIGHT - 16);
      y -= height;
      const bar = svg("rect", {
        x: AXIS + index * slot + 2,
        y,
        width: Math.max(1, slot - 4),
        height,
        class: `bar ${outcome}`,
      });
      const tip = svg("title", {});
      tip.textContent = t("usage.bar", { day, count, outcome: text.label("outcome", outcome) });
      bar.append(tip);
      drawing.append(bar);
    }
    // A label a week, counted back from today, so the last bar is always labelled (ending at the edge).
    if ((days.length - 1 - index) % 7 === 0) {
      const last = index === days.length - 1;
      const label = svg("text", {
        x: last ? WIDTH : AXIS + (index + 0.5) * slot,
        y: HEIGHT + 16,
        class: "axis-label",
        "text-anchor": last ? "end" : "middle",
      });
      label.textContent = day.slice(5);
      drawing.append(label);
    }
  });
  return drawing;
}

export function showUsage(context: PortalContext): void {
  const days = windowDays();
  const body = h("div", { "aria-busy": "true" });
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "usage-title" },
      h("h1", { id: "usage-title", tabindex: "-1" }, t("usage.title")),
      h("p", { class: "intro" }, t("usage.intro", { days: DAYS })),
      body,
    ),
  );
  Promise.all([context.api.usage(days[0] ?? "", days.at(-1) ?? ""), context.apps()])
    .then(([usage, apps]) => {
      const totals = perDay(usage.data, days);
      const sums = Object.fromEntries(
        OUTCOMES.map((outcome) => [outcome, usage.data.reduce((sum, row) => sum + row[outcome], 0)]),
      ) as Record<Outcome, number>;
      const total = OUTCOMES.reduce((sum, outcome) => sum + sums[outcome], 0);
      const names = new Map(apps.map((app) => [app.app_id, app.name]));
      body.replaceChildren(
        h(
          "ul",
          { class: "totals", "aria-label": t("usage.totals") },
          h("li", {}, ...text.nodes("usage.all", { count: h("strong", {}, String(total)) })),
          ...OUTCOMES.map((outcome) =>
            h(
              "li",
              {},
              h("span", { class: `swatch ${outcome}`, "aria-hidden": "true" }),
              h("strong", {}, String(sums[outcome])),
              ` ${text.label("outcome", outcome)}`,
            ),
          ),
        ),
        h("figure", { class: "panel chart" }, chart(days, totals)),
        usage.data.length === 0
          ? h("p", { class: "empty" }, t("usage.none"))
          : table(
              t("usage.caption"),
              [
                t("usage.day"),
                t("common.app"),
                ...OUTCOMES.map((outcome) => text.label("outcome", outcome)),
                t("usage.total"),
              ],
              [...usage.data]
                .reverse()
                .map((row) => [
                  row.day,
                  names.get(row.app_id) ?? row.app_id,
                  ...OUTCOMES.map((o) => String(row[o])),
                  String(row.total),
                ]),
            ),
      );
    })
    .catch((error: unknown) => context.say.error(problemText(error, "usage.load_failed")))
    .finally(() => body.removeAttribute("aria-busy"));
}
