/**
 * One app's requests to the public API as the API answered them, as Stripe's request log: newest
 * first, filtered by status class and by days in the browser's clock; a refusal shows its code and
 * each invalid field's path and code by their labels, and a request about a verification opens it.
 */
import { h, localDayStart, timeOf } from "../common/dom.ts";
import { appPicker, field, type PortalContext, table } from "./context.ts";
import { STATUS_CLASSES } from "./order.ts";
import { refusalOf } from "./refusal.ts";
import { problemText, t, text } from "./text.ts";
import { openVerification, verificationOpener } from "./verifications.ts";
import type { App, KeptRequest, StatusClass } from "./wire.ts";

/** The last second of `day` in the browser's time zone, as an instant; none for no day. */
function endOf(day: string): string | undefined {
  return day ? new Date(`${day}T23:59:59`).toISOString() : undefined;
}

function filters() {
  const status = h(
    "select",
    { id: "requests-status", name: "status" },
    h("option", { value: "" }, t("requests.all")),
    ...STATUS_CLASSES.map((statusClass) =>
      h("option", { value: statusClass }, text.label("status_class", statusClass)),
    ),
  );
  const from = h("input", { id: "requests-from", name: "from", type: "date" });
  const to = h("input", { id: "requests-to", name: "to", type: "date" });
  return { status, from, to };
}

function requestsSection(context: PortalContext, app: App): HTMLElement {
  const { status, from, to } = filters();
  const body = h("div", { "aria-live": "polite" });
  const more = h("button", { type: "button", hidden: true }, t("common.load_more"));
  const shown = h("div");
  let cursor: string | null = null;
  let rows: KeptRequest[] = [];

  const opener = (request: KeptRequest, index: number) => {
    const id = request.verification_id;
    if (!id) return "—";
    return verificationOpener(`request-verification-${index}`, id, () =>
      openVerification(context, shown, id, app.app_id),
    );
  };
  const draw = () => {
    body.replaceChildren(
      rows.length === 0
        ? h("p", { class: "empty" }, t("requests.none"))
        : table(
            t("requests.caption", { app: app.name }),
            [
              t("requests.time"),
              t("requests.request"),
              t("requests.status"),
              t("requests.refusal"),
              t("requests.verification"),
            ],
            rows.map((request, index) => [
              timeOf(request.at),
              h(
                "span",
                {},
                h("code", {}, `${request.method} ${request.path}`),
                h("br", {}),
                h("small", {}, request.request_id),
              ),
              h("span", { class: `badge status-${request.status.toString()[0]}xx` }, String(request.status)),
              refusalOf(request),
              opener(request, index),
            ]),
          ),
    );
    more.hidden = cursor === null;
  };
  const load = async (next: boolean) => {
    const page = await context.api.requests(
      app.app_id,
      {
        status: (status.value || undefined) as StatusClass | undefined,
        since: localDayStart(from.value),
        until: endOf(to.value),
      },
      next ? cursor : null,
    );
    rows = next ? [...rows, ...page.data] : page.data;
    cursor = page.next_cursor;
    draw();
  };
  const reload = () => {
    context.say.clear();
    shown.replaceChildren();
    load(false).catch((error: unknown) => context.say.error(problemText(error, "requests.load_failed")));
  };
  for (const control of [status, from, to]) control.addEventListener("change", reload);
  more.addEventListener("click", () => {
    load(true).catch((error: unknown) => context.say.error(problemText(error, "requests.more_failed")));
  });
  const refresh = h("button", { type: "button", id: "requests-refresh" }, t("requests.refresh"));
  refresh.addEventListener("click", reload);
  reload();
  return h(
    "section",
    { class: "panel", "aria-labelledby": "requests-list-title" },
    h("h2", { id: "requests-list-title" }, t("requests.list_title", { app: app.name })),
    h(
      "div",
      { class: "inline-form" },
      field(t("requests.show"), status),
      field(t("requests.from"), from),
      field(t("requests.to"), to),
      refresh,
    ),
    body,
    more,
    shown,
  );
}

export async function showRequests(context: PortalContext): Promise<void> {
  const content = h("div", { class: "stack" });
  const picker = await appPicker(context, (app) => content.replaceChildren(requestsSection(context, app)));
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "requests-title" },
      h("h1", { id: "requests-title", tabindex: "-1" }, t("requests.title")),
      h("p", { class: "intro" }, t("requests.intro")),
      picker,
      content,
    ),
  );
}
