/** The queue: what waits for a person, oldest first, a page at a time, all of it or one type or reason. */
import { clockText, h, timeOf } from "../common/dom.ts";
import { duration } from "../common/i18n.ts";
import { REVIEW_REASONS } from "./order.ts";
import { type ConsoleContext, heldByAnother, type Screen } from "./screen.ts";
import { problemText, t, text } from "./text.ts";
import type { TextKey } from "./text-en.ts";
import { type Claim, DOCUMENT_TYPES, type ReviewEntry, type ReviewFilter } from "./wire.ts";

const COLUMNS: TextKey[] = [
  "queue.column.verification",
  "queue.column.app",
  "queue.column.type",
  "queue.column.reason",
  "queue.column.waiting",
  "queue.column.time_left",
  "queue.column.claim",
];

/** Reloaded this often while the queue is on screen and the tab is visible. */
const REFRESH_MS = 60_000;

/** Kept while an item is open, so Back returns to the same filter, page and row. */
export interface QueuePosition {
  filter: ReviewFilter;
  /** The cursor of each page up to the one shown (read with `filter`); null for the first. */
  cursors: (string | null)[];
  selected: string | undefined;
}

export function newQueuePosition(): QueuePosition {
  return { filter: {}, cursors: [null], selected: undefined };
}

/** Who holds a claim, with "you" for the signed-in user. */
function claimText(claim: Claim | null, username: string): Node {
  if (!claim) return document.createTextNode(t("queue.free"));
  const holder = claim.claimed_by === username ? t("queue.you") : claim.claimed_by;
  return h("span", {}, t("queue.held_until", { holder }), timeOf(claim.expires_at));
}

/** The elements of the screen that the steps below fill in. */
interface QueueParts {
  section: HTMLElement;
  heading: HTMLElement;
  refresh: HTMLButtonElement;
  total: HTMLElement;
  type: HTMLSelectElement;
  reason: HTMLSelectElement;
  summary: HTMLElement;
  table: HTMLTableElement;
  body: HTMLTableSectionElement;
  /** The items another reviewer holds, listed apart below the others under their own title. */
  heldBody: HTMLTableSectionElement;
  previous: HTMLButtonElement;
  next: HTMLButtonElement;
}

/**
 * The queue on screen: its page, the next page's cursor, the refresh timer, how many reads were
 * started (only the latest is drawn: the filters may change while one is under way), whether
 * another screen took its place.
 */
interface Queue {
  context: ConsoleContext;
  position: QueuePosition;
  parts: QueueParts;
  /** The page's entries as listed: those the reviewer may take first, then those another holds. */
  entries: ReviewEntry[];
  nextCursor: string | null;
  timer: number | undefined;
  reads: number;
  left: boolean;
}

/** A filter's list: every code by its label, after the choice that keeps them all; `chosen` selected. */
function filterSelect(id: string, all: TextKey, group: string, codes: readonly string[], chosen?: string) {
  return h(
    "select",
    { id, name: id },
    h("option", { value: "" }, t(all)),
    ...codes.map((code) => h("option", { value: code, selected: code === chosen }, text.label(group, code))),
  );
}

/** A labelled filter. */
function filterField(label: TextKey, select: HTMLSelectElement): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: select.id }, t(label)), select);
}

/** The screen's frame: the filters as `filter` sets them, the tables with no rows yet, and the pager. */
function queueParts(filter: ReviewFilter): QueueParts {
  const body = h("tbody");
  const heldBody = h("tbody", { class: "held" });
  const parts = {
    heading: h("h1", { id: "queue-title", tabindex: "-1" }, t("queue.title")),
    refresh: h("button", { type: "button" }, t("queue.refresh")),
    total: h("p", { class: "total", id: "queue-total" }),
    type: filterSelect("queue-type", "queue.filter.any_type", "type", DOCUMENT_TYPES, filter.document_type),
    reason: filterSelect("queue-reason", "queue.filter.any_reason", "reason", REVIEW_REASONS, filter.reason_code),
    summary: h("p", { class: "muted", id: "queue-summary" }),
    body,
    heldBody,
    table: h(
      "table",
      { class: "queue", "aria-describedby": "queue-total queue-summary", "aria-busy": "true" },
      h("caption", { class: "visually-hidden" }, t("queue.caption")),
      h("thead", {}, h("tr", {}, ...COLUMNS.map((name) => h("th", { scope: "col" }, t(name))))),
      body,
      heldBody,
    ),
    previous: h("button", { type: "button" }, t("queue.previous")),
    next: h("button", { type: "button" }, t("queue.next")),
  };
  const section = h(
    "section",
    { class: "panel", "aria-labelledby": "queue-title" },
    h("div", { class: "toolbar" }, parts.heading, parts.refresh),
    parts.total,
    h(
      "div",
      { class: "filters", role: "group", "aria-label": t("queue.filters") },
      filterField("queue.filter.type", parts.type),
      filterField("queue.filter.reason", parts.reason),
    ),
    parts.summary,
    h("div", { class: "table-scroll" }, parts.table),
    h("nav", { class: "pager", "aria-label": t("queue.pages") }, parts.previous, parts.next),
  );
  return { section, ...parts };
}

/** Marks the row of `id` as selected (kept in the position), and focuses its link when asked. */
function select(queue: Queue, id: string | undefined, focus: boolean): void {
  queue.position.selected = id;
  for (const link of queue.parts.table.querySelectorAll<HTMLAnchorElement>("a[data-id]")) {
    const chosen = link.dataset.id === id;
    link.closest("tr")?.classList.toggle("selected", chosen);
    if (chosen && focus) link.focus();
  }
}

/** How long until the review deadline, or that it passed. */
function timeLeft(deadline: string): string {
  const left = Date.parse(deadline) - Date.now();
  return left > 0 ? duration(left, text.language()) : t("queue.overdue");
}

/** A cell of `column`, labelled by it for the phone's cards. */
function cell(
  column: TextKey,
  attributes: Record<string, string>,
  ...content: (Node | string)[]
): HTMLTableCellElement {
  return h("td", { ...attributes, "data-label": t(column) }, ...content);
}

/** One waiting verification: its link (focusing it selects the row), its app, type, reason, wait, time left and claim. */
function entryRow(queue: Queue, entry: ReviewEntry): HTMLTableRowElement {
  const link = h("a", { class: "id", href: `#/reviews/${entry.verification_id}`, "data-id": entry.verification_id });
  link.textContent = entry.verification_id;
  link.addEventListener("focus", () => select(queue, entry.verification_id, false));
  const named = entry.app_name !== entry.app_id;
  return h(
    "tr",
    {},
    cell("queue.column.verification", {}, link),
    cell(
      "queue.column.app",
      named ? { title: entry.app_id } : {},
      h("span", named ? {} : { class: "id" }, entry.app_name),
    ),
    cell("queue.column.type", {}, text.label("type", entry.document_type)),
    cell("queue.column.reason", {}, text.label("reason", entry.reason_code)),
    cell(
      "queue.column.waiting",
      {},
      h(
        "span",
        { title: t("queue.since", { time: clockText(entry.waiting_since) }) },
        duration(Date.now() - Date.parse(entry.waiting_since), text.language()),
      ),
    ),
    cell(
      "queue.column.time_left",
      {},
      h(
        "span",
        { title: t("queue.deadline", { time: clockText(entry.review_deadline) }) },
        timeLeft(entry.review_deadline),
      ),
    ),
    cell("queue.column.claim", {}, claimText(entry.claim, queue.context.username())),
  );
}

/** How many wait in all (those the filters keep), on every page. */
function totalText(total: number): string {
  return total === 1 ? t("queue.total_one") : t("queue.total", { count: total });
}

/** What the page holds, in a sentence, with the keys that work it. */
function pageSummary(page: number, waiting: number): string {
  if (waiting === 0) return page === 1 ? t("queue.empty") : t("queue.empty_page");
  return t("queue.summary", { page, count: waiting });
}

/**
 * Draws the page just read: how many wait, its rows (those another reviewer holds apart, below),
 * its summary, the pager, and the selection: the same row while the reviewer may still take it,
 * else the first such row; never one another reviewer holds.
 */
function render(queue: Queue, page: ReviewEntry[], total: number): void {
  const { parts, position } = queue;
  const username = queue.context.username();
  const open = page.filter((entry) => !heldByAnother(entry.claim, username));
  const held = page.filter((entry) => heldByAnother(entry.claim, username));
  queue.entries = [...open, ...held];
  parts.total.textContent = totalText(total);
  parts.body.replaceChildren(...open.map((entry) => entryRow(queue, entry)));
  parts.heldBody.replaceChildren(
    ...(held.length === 0
      ? []
      : [
          h("tr", { class: "held-title" }, h("td", { colspan: COLUMNS.length }, t("queue.held_caption"))),
          ...held.map((entry) => entryRow(queue, entry)),
        ]),
  );
  const pageNumber = position.cursors.length;
  parts.summary.textContent = pageSummary(pageNumber, page.length);
  parts.previous.disabled = pageNumber === 1;
  parts.next.disabled = queue.nextCursor === null;
  const keep = open.some((entry) => entry.verification_id === position.selected);
  select(queue, keep ? position.selected : open[0]?.verification_id, false);
}

/** Reads the page the position names and draws it; `announce` says its summary. The next refresh is set either way. */
async function load(queue: Queue, announce: boolean): Promise<void> {
  const { context, parts } = queue;
  window.clearTimeout(queue.timer);
  parts.table.setAttribute("aria-busy", "true");
  // Keep the row in focus across a reload, which replaces the rows.
  const hadFocus = parts.body.contains(document.activeElement) || parts.heldBody.contains(document.activeElement);
  const read = ++queue.reads;
  const latest = () => !queue.left && read === queue.reads;
  try {
    const page = await context.api.reviews(queue.position.filter, queue.position.cursors.at(-1) ?? null);
    if (!latest()) return;
    queue.nextCursor = page.next_cursor;
    render(queue, page.data, page.total);
    if (hadFocus) select(queue, queue.position.selected, true);
    if (announce) context.say.info(parts.summary.textContent ?? "");
  } catch (error) {
    if (latest()) context.say.error(problemText(error, "queue.load_failed"));
  } finally {
    if (latest()) {
      parts.table.setAttribute("aria-busy", "false");
      schedule(queue);
    }
  }
}

/** The next refresh; a hidden tab skips its turn rather than load a page nobody sees. */
function schedule(queue: Queue): void {
  queue.timer = window.setTimeout(() => {
    if (document.visibilityState === "visible") void load(queue, false);
    else schedule(queue);
  }, REFRESH_MS);
}

/** The previous page, or the first again. */
function previousPage(queue: Queue): void {
  if (queue.position.cursors.length > 1) queue.position.cursors.pop();
  void load(queue, true);
}

/** The next page, when there is one. */
function nextPage(queue: Queue): void {
  if (queue.nextCursor === null) return;
  queue.position.cursors.push(queue.nextCursor);
  void load(queue, true);
}

/** The filters as the lists now set them, from the first page. */
function refilter(queue: Queue): void {
  const type = DOCUMENT_TYPES.find((code) => code === queue.parts.type.value);
  const reason = REVIEW_REASONS.find((code) => code === queue.parts.reason.value);
  queue.position.filter = { ...(type ? { document_type: type } : {}), ...(reason ? { reason_code: reason } : {}) };
  queue.position.cursors = [null];
  queue.position.selected = undefined;
  void load(queue, true);
}

/** Moves the selection `by` rows, staying on the page. */
function move(queue: Queue, by: number): void {
  const { entries, position } = queue;
  if (entries.length === 0) return;
  const at = entries.findIndex((entry) => entry.verification_id === position.selected);
  const to = at === -1 ? 0 : Math.min(entries.length - 1, Math.max(0, at + by));
  select(queue, entries[to]?.verification_id, true);
}

/** The queue's shortcuts: j and k (or the arrows) move, Enter opens the selected row. */
function queueKey(queue: Queue, event: KeyboardEvent): boolean {
  switch (event.key) {
    case "j":
    case "ArrowDown":
      move(queue, 1);
      return true;
    case "k":
    case "ArrowUp":
      move(queue, -1);
      return true;
    case "Enter": {
      // A focused link or button acts by itself; Enter anywhere else opens the selected row.
      const { selected } = queue.position;
      if (document.activeElement?.closest("a, button") || !selected) return false;
      queue.context.open(selected);
      return true;
    }
    default:
      return false;
  }
}

export function showQueue(context: ConsoleContext, position: QueuePosition): Screen {
  const parts = queueParts(position.filter);
  const queue: Queue = {
    context,
    position,
    parts,
    entries: [],
    nextCursor: null,
    timer: undefined,
    reads: 0,
    left: false,
  };
  context.view.replaceChildren(parts.section);

  parts.refresh.addEventListener("click", () => void load(queue, true));
  parts.type.addEventListener("change", () => refilter(queue));
  parts.reason.addEventListener("change", () => refilter(queue));
  parts.previous.addEventListener("click", () => previousPage(queue));
  parts.next.addEventListener("click", () => nextPage(queue));
  parts.heading.focus();
  void load(queue, false).then(() => {
    // Focus goes to the selected row (back from an item: the row just left), ready for j/k.
    if (!queue.left && position.selected) select(queue, position.selected, true);
  });

  return {
    key: (event) => queueKey(queue, event),
    leave() {
      queue.left = true;
      window.clearTimeout(queue.timer);
    },
  };
}
