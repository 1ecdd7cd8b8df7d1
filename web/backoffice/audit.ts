/**
 * The audit trail, for admins: who did what, when and from where, newest first; everyone's
 * records, one verification's, or one actor's. The filter is in the address
 * (`#/audit?verification=<id>`, `#/audit?actor=<sub>`), so a link elsewhere can open it. The API
 * decides who may read the trail: anyone else is told so here.
 */
import { h, timeOf } from "../common/dom.ts";
import { ApiError } from "../common/problem.ts";
import type { ConsoleContext, Screen } from "./screen.ts";
import { problemText, t, text } from "./text.ts";
import type { TextKey } from "./text-en.ts";
import type { AuditFilter, AuditRecord } from "./wire.ts";

const COLUMNS: TextKey[] = [
  "audit.column.time",
  "audit.column.actor",
  "audit.column.action",
  "audit.column.verification",
  "audit.column.app",
  "audit.column.request",
  "audit.column.source",
];

/** The address of the trail as `filter` narrows it. */
export function auditAddress(filter: AuditFilter): string {
  if (filter.verification_id) return `#/audit?${new URLSearchParams({ verification: filter.verification_id })}`;
  if (filter.actor) return `#/audit?${new URLSearchParams({ actor: filter.actor })}`;
  return "#/audit";
}

/** The filter an address's query names: one verification's records, else one actor's, else everyone's. */
function filterOf(query: string): AuditFilter {
  const named = new URLSearchParams(query);
  const verification = named.get("verification")?.trim();
  const actor = named.get("actor")?.trim();
  if (verification) return { verification_id: verification };
  if (actor) return { actor };
  return {};
}

/** The elements of the screen that the steps below fill in. */
interface AuditParts {
  section: HTMLElement;
  heading: HTMLElement;
  scope: HTMLElement;
  form: HTMLFormElement;
  verification: HTMLInputElement;
  summary: HTMLElement;
  table: HTMLTableElement;
  body: HTMLTableSectionElement;
  previous: HTMLButtonElement;
  next: HTMLButtonElement;
}

/** The trail on screen: its filter, the cursor of each page up to the one shown, the next page's, and whether another screen took its place. */
interface Trail {
  context: ConsoleContext;
  filter: AuditFilter;
  parts: AuditParts;
  cursors: (string | null)[];
  nextCursor: string | null;
  reads: number;
  left: boolean;
}

/** What the screen shows, in a sentence: everyone's records, a verification's or an actor's (by name once a record names them). */
function scopeText(filter: AuditFilter, records: AuditRecord[]): string {
  if (filter.verification_id) return t("audit.scope.verification", { id: filter.verification_id });
  if (filter.actor) return t("audit.scope.actor", { name: records[0]?.actor.username ?? filter.actor });
  return t("audit.scope.everyone");
}

/** The screen's frame: the filter (with a way back to everyone's records), the table with no rows yet, and the pager. */
function auditParts(filter: AuditFilter): AuditParts {
  const body = h("tbody");
  const verification = h("input", {
    id: "audit-verification",
    name: "verification",
    autocomplete: "off",
    spellcheck: "false",
    value: filter.verification_id ?? "",
  });
  const parts = {
    heading: h("h1", { id: "audit-title", tabindex: "-1" }, t("audit.title")),
    scope: h("p", { id: "audit-scope" }),
    verification,
    form: h(
      "form",
      { class: "audit-filter", role: "search", "aria-label": t("audit.filter.label") },
      h("div", { class: "field" }, h("label", { for: verification.id }, t("audit.filter.verification")), verification),
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
  const filtered = filter.verification_id !== undefined || filter.actor !== undefined;
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
    cell("audit.column.action", text.label("action", record.action)),
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
    const page = await context.api.audit(trail.filter, trail.cursors.at(-1) ?? null);
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
function show(trail: Trail, filter: AuditFilter): void {
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
    show(trail, id ? { verification_id: id } : {});
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
