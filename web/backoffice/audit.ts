/**
 * The audit trail, for admins: who did what, when and from where, newest first; everyone's
 * records, one verification's, or one actor's, of one action or all, over a span of days (the
 * browser's) or all. The filter is in the address (`#/audit?verification=<id>`,
 * `#/audit?actor=<sub>&action=review.decided&from=2026-11-01&to=2026-11-30`), so a link elsewhere
 * can open it. The API
 * decides who may read the trail: anyone else is told so here.
 */
import { h, timeOf } from "../common/dom.ts";
import { ApiError } from "../common/problem.ts";
import { AUDIT_ACTIONS } from "./order.ts";
import type { ConsoleContext, Screen } from "./screen.ts";
import { problemText, t, text } from "./text.ts";
import type { TextKey } from "./text-en.ts";
import type { AuditFilter, AuditRecord } from "./wire.ts";

/** What the screen shows: one verification's or one actor's records (or all), of one action, over days (`YYYY-MM-DD`, the browser's). */
interface TrailFilter {
  verification_id?: string;
  actor?: string;
  action?: NonNullable<AuditFilter["action"]>;
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The start of `day` (`YYYY-MM-DD`) in the browser's time zone, `after` days on. */
function dayStart(day: string, after = 0): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date + after).toISOString();
}

/** What the API is asked: the days as the span from the first's start to the day after the last's. */
function apiFilter(filter: TrailFilter): AuditFilter {
  return {
    ...(filter.verification_id ? { verification_id: filter.verification_id } : {}),
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.from ? { since: dayStart(filter.from) } : {}),
    ...(filter.to ? { until: dayStart(filter.to, 1) } : {}),
  };
}

const COLUMNS: TextKey[] = [
  "audit.column.time",
  "audit.column.actor",
  "audit.column.action",
  "audit.column.verification",
  "audit.column.app",
  "audit.column.request",
  "audit.column.source",
];

/** What the record's actor did, in words; a decision with its result and reason, as its record keeps them. */
function actionText(record: AuditRecord): string {
  const action = text.label("action", record.action);
  const result = record.detail?.result;
  if (!result) return action;
  const reason = record.detail?.reason_code;
  return `${action}: ${text.label("result", result)}${reason ? ` (${text.label("reason", reason)})` : ""}`;
}

/** The address of the trail as `filter` narrows it. */
export function auditAddress(filter: TrailFilter): string {
  const named = new URLSearchParams();
  if (filter.verification_id) named.set("verification", filter.verification_id);
  else if (filter.actor) named.set("actor", filter.actor);
  for (const name of ["action", "from", "to"] as const) {
    const value = filter[name];
    if (value) named.set(name, value);
  }
  const query = named.toString();
  return query ? `#/audit?${query}` : "#/audit";
}

/** The filter an address's query names: one verification's records, else one actor's, else everyone's; of an action and days it knows. */
function filterOf(query: string): TrailFilter {
  const named = new URLSearchParams(query);
  const verification = named.get("verification")?.trim();
  const actor = named.get("actor")?.trim();
  const action = AUDIT_ACTIONS.find((known) => known === named.get("action"));
  const [from, to] = (["from", "to"] as const).map((name) => {
    const day = named.get(name) ?? "";
    return DAY.test(day) ? day : undefined;
  });
  return {
    ...(verification ? { verification_id: verification } : actor ? { actor } : {}),
    ...(action ? { action } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** The elements of the screen that the steps below fill in. */
interface AuditParts {
  section: HTMLElement;
  heading: HTMLElement;
  scope: HTMLElement;
  form: HTMLFormElement;
  verification: HTMLInputElement;
  action: HTMLSelectElement;
  from: HTMLInputElement;
  to: HTMLInputElement;
  summary: HTMLElement;
  table: HTMLTableElement;
  body: HTMLTableSectionElement;
  previous: HTMLButtonElement;
  next: HTMLButtonElement;
}

/** The trail on screen: its filter, the cursor of each page up to the one shown, the next page's, and whether another screen took its place. */
interface Trail {
  context: ConsoleContext;
  filter: TrailFilter;
  parts: AuditParts;
  cursors: (string | null)[];
  nextCursor: string | null;
  reads: number;
  left: boolean;
}

/** What the screen shows, in a sentence: everyone's records, a verification's or an actor's (by name once a record names them). */
function scopeText(filter: TrailFilter, records: AuditRecord[]): string {
  if (filter.verification_id) return t("audit.scope.verification", { id: filter.verification_id });
  if (filter.actor) return t("audit.scope.actor", { name: records[0]?.actor.username ?? filter.actor });
  return t("audit.scope.everyone");
}

/** The filter's fields besides the verification: the action, and the first and last day. */
function narrowingFields(filter: TrailFilter) {
  const action = h(
    "select",
    { id: "audit-action", name: "action" },
    h("option", { value: "" }, t("audit.filter.any_action")),
    ...AUDIT_ACTIONS.map((code) => h("option", { value: code }, text.label("action", code))),
  );
  action.value = filter.action ?? "";
  const day = (name: "from" | "to") =>
    h("input", { id: `audit-${name}`, name, type: "date", value: filter[name] ?? "" });
  return { action, from: day("from"), to: day("to") };
}

/** A labelled field of the filter. */
const field = (label: TextKey, control: HTMLInputElement | HTMLSelectElement) =>
  h("div", { class: "field" }, h("label", { for: control.id }, t(label)), control);

/** The screen's frame: the filter (with a way back to everyone's records), the table with no rows yet, and the pager. */
function auditParts(filter: TrailFilter): AuditParts {
  const body = h("tbody");
  const verification = h("input", {
    id: "audit-verification",
    name: "verification",
    autocomplete: "off",
    spellcheck: "false",
    value: filter.verification_id ?? "",
  });
  const narrowing = narrowingFields(filter);
  const parts = {
    heading: h("h1", { id: "audit-title", tabindex: "-1" }, t("audit.title")),
    scope: h("p", { id: "audit-scope" }),
    verification,
    ...narrowing,
    form: h(
      "form",
      { class: "audit-filter", role: "search", "aria-label": t("audit.filter.label") },
      field("audit.filter.verification", verification),
      field("audit.filter.action", narrowing.action),
      field("audit.filter.from", narrowing.from),
      field("audit.filter.to", narrowing.to),
      h("button", { type: "submit" }, t("audit.filter.submit")),
    ),
    summary: h("p", { class: "muted", id: "audit-summary" }),
    body,
    table: h(
      "table",
      { class: "audit", "aria-describedby": "audit-scope audit-summary", "aria-busy": "true" },
      h("caption", { class: "visually-hidden" }, t("audit.caption")),
      h("thead", {}, h("tr", {}, ...COLUMNS.map((name) => h("th", { scope: "col" }, t(name))))),
      body,
    ),
    previous: h("button", { type: "button" }, t("queue.previous")),
    next: h("button", { type: "button" }, t("queue.next")),
  };
  const filtered = Object.keys(filter).length > 0;
  const section = h(
    "section",
    { class: "panel", "aria-labelledby": "audit-title" },
    h("div", { class: "toolbar" }, parts.heading, h("a", { href: "#/" }, t("queue.title"))),
    h("div", { class: "scope" }, parts.scope, filtered && h("a", { href: auditAddress({}) }, t("audit.filter.clear"))),
    parts.form,
    parts.summary,
    h("div", { class: "table-scroll" }, parts.table),
    h("nav", { class: "pager", "aria-label": t("audit.pages") }, parts.previous, parts.next),
  );
  return { section, ...parts };
}

/** A cell of `column`, labelled by it for the phone's cards. */
function cell(column: TextKey, ...content: (Node | string)[]): HTMLTableCellElement {
  return h("td", { "data-label": t(column) }, ...content);
}

/** An id, or that the record names none. */
function idOrNone(id: string | undefined, link?: string): HTMLElement {
  if (id === undefined) return h("span", { class: "muted" }, t("audit.none"));
  return link ? h("a", { class: "id", href: link }, id) : h("span", { class: "id" }, id);
}

/** One record: when, who (their name filters by them), what, about which verification and app, in which request, from where. */
function recordRow(record: AuditRecord): HTMLTableRowElement {
  const { actor } = record;
  const verification = record.verification_id;
  return h(
    "tr",
    {},
    cell("audit.column.time", timeOf(record.at)),
    cell(
      "audit.column.actor",
      h(
        "span",
        {},
        h(
          "a",
          { href: auditAddress({ actor: actor.sub }), title: t("audit.actor_only", { name: actor.username }) },
          actor.username,
        ),
        h("span", { class: "muted pool" }, text.label("pool", actor.pool)),
      ),
    ),
    cell("audit.column.action", actionText(record)),
    cell(
      "audit.column.verification",
      idOrNone(verification, verification && `#/reviews/${encodeURIComponent(verification)}`),
    ),
    cell("audit.column.app", idOrNone(record.app_id)),
    cell("audit.column.request", h("span", { class: "id" }, record.request_id)),
    cell("audit.column.source", h("span", { class: "id" }, record.source_ip)),
  );
}

/** Draws the page just read: its scope, rows, summary and pager. */
function render(trail: Trail, records: AuditRecord[]): void {
  const { parts, cursors } = trail;
  const page = cursors.length;
  parts.scope.textContent = scopeText(trail.filter, records);
  parts.body.replaceChildren(...records.map(recordRow));
  parts.summary.textContent =
    records.length === 0
      ? t(page === 1 ? "audit.empty" : "audit.empty_page")
      : t("audit.summary", { page, count: records.length });
  parts.previous.disabled = page === 1;
  parts.next.disabled = trail.nextCursor === null;
}

/** Only admins read the trail: the API's 403 says so, in place of the trail. */
function refused(trail: Trail): void {
  const { parts } = trail;
  parts.section.replaceChildren(
    h("div", { class: "toolbar" }, parts.heading, h("a", { href: "#/" }, t("queue.title"))),
    h("p", { class: "message error", role: "alert" }, t("audit.forbidden")),
  );
}

/** Reads the page the cursors name and draws it; `announce` says its summary. */
async function load(trail: Trail, announce: boolean): Promise<void> {
  const { context, parts } = trail;
  const read = ++trail.reads;
  const latest = () => !trail.left && read === trail.reads;
  parts.table.setAttribute("aria-busy", "true");
  try {
    const page = await context.api.audit(apiFilter(trail.filter), trail.cursors.at(-1) ?? null);
    if (!latest()) return;
    trail.nextCursor = page.next_cursor;
    render(trail, page.data);
    if (announce) context.say.info(parts.summary.textContent ?? "");
  } catch (error) {
    if (!latest()) return;
    if (error instanceof ApiError && error.status === 403) refused(trail);
    else context.say.error(problemText(error, "audit.load_failed"));
  } finally {
    if (latest()) parts.table.setAttribute("aria-busy", "false");
  }
}

/** Another filter: a new address, so Back returns to the last one; the same one reads the trail again. */
function show(trail: Trail, filter: TrailFilter): void {
  const address = auditAddress(filter);
  if (address === location.hash) {
    trail.cursors = [null];
    void load(trail, true);
  } else {
    location.hash = address;
  }
}

/** The trail as the address's `query` (after `#/audit?`) narrows it. */
export function showAudit(context: ConsoleContext, query: string): Screen {
  const filter = filterOf(query);
  const parts = auditParts(filter);
  const trail: Trail = { context, filter, parts, cursors: [null], nextCursor: null, reads: 0, left: false };
  parts.scope.textContent = scopeText(filter, []);
  context.view.replaceChildren(parts.section);

  parts.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const id = parts.verification.value.trim();
    // The actor's records stay the scope while no verification is named.
    const actor = trail.filter.actor;
    const action = AUDIT_ACTIONS.find((known) => known === parts.action.value);
    show(trail, {
      ...(id ? { verification_id: id } : actor ? { actor } : {}),
      ...(action ? { action } : {}),
      ...(DAY.test(parts.from.value) ? { from: parts.from.value } : {}),
      ...(DAY.test(parts.to.value) ? { to: parts.to.value } : {}),
    });
  });
  parts.previous.addEventListener("click", () => {
    if (trail.cursors.length > 1) trail.cursors.pop();
    void load(trail, true);
  });
  parts.next.addEventListener("click", () => {
    if (trail.nextCursor === null) return;
    trail.cursors.push(trail.nextCursor);
    void load(trail, true);
  });
  parts.heading.focus();
  void load(trail, false);

  return {
    key: () => false,
    leave() {
      trail.left = true;
    },
  };
}
