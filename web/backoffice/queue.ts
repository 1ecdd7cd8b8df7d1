/** The queue: what waits for a person, oldest first, a page at a time. */
import { ApiError } from "../common/api-client.ts";
import { durationSince, h, timeOf, words } from "../common/dom.ts";
import type { ConsoleContext, Screen } from "./screen.ts";
import type { Claim, ReviewEntry } from "./wire.ts";

/** Reloaded this often while the queue is on screen and the tab is visible. */
const REFRESH_MS = 60_000;

/** Kept while an item is open, so Back returns to the same page and row. */
export interface QueuePosition {
  /** The cursor of each page up to the one shown; null for the first. */
  cursors: (string | null)[];
  selected: string | undefined;
}

export function newQueuePosition(): QueuePosition {
  return { cursors: [null], selected: undefined };
}

/** Who holds a claim, with "you" for the signed-in user. */
function claimText(claim: Claim | null, username: string): Node {
  if (!claim) return document.createTextNode("Free");
  const holder = claim.claimed_by === username ? "You" : claim.claimed_by;
  return h("span", {}, `${holder} until `, timeOf(claim.expires_at));
}

export function showQueue(context: ConsoleContext, position: QueuePosition): Screen {
  const heading = h("h1", { id: "queue-title", tabindex: "-1" }, "Review queue");
  const refresh = h("button", { type: "button" }, "Refresh");
  const summary = h("p", { class: "muted", id: "queue-summary" });
  const body = h("tbody");
  const table = h(
    "table",
    { class: "queue", "aria-describedby": "queue-summary", "aria-busy": "true" },
    h("caption", { class: "visually-hidden" }, "Verifications waiting for review, oldest first"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...["Verification", "App", "Type", "Reason", "Waiting", "Claimed by"].map((name) =>
          h("th", { scope: "col" }, name),
        ),
      ),
    ),
    body,
  );
  const previous = h("button", { type: "button" }, "Previous page");
  const next = h("button", { type: "button" }, "Next page");
  context.view.replaceChildren(
    h(
      "section",
      { class: "panel", "aria-labelledby": "queue-title" },
      h("div", { class: "toolbar" }, heading, refresh),
      summary,
      h("div", { class: "table-scroll" }, table),
      h("nav", { class: "pager", "aria-label": "Queue pages" }, previous, next),
    ),
  );

  let entries: ReviewEntry[] = [];
  let nextCursor: string | null = null;
  let timer: number | undefined;
  let left = false;

  const links = () => [...body.querySelectorAll<HTMLAnchorElement>("a[data-id]")];
  const select = (id: string | undefined, focus: boolean) => {
    position.selected = id;
    for (const link of links()) {
      const chosen = link.dataset.id === id;
      link.closest("tr")?.classList.toggle("selected", chosen);
      if (chosen && focus) link.focus();
    }
  };

  const render = () => {
    body.replaceChildren(
      ...entries.map((entry) => {
        const link = h("a", { href: `#/reviews/${entry.verification_id}`, "data-id": entry.verification_id });
        link.textContent = entry.verification_id;
        link.addEventListener("focus", () => select(entry.verification_id, false));
        return h(
          "tr",
          {},
          h("td", { class: "id" }, link),
          h("td", { class: "id" }, entry.app_id),
          h("td", {}, entry.document_type),
          h("td", { title: entry.message }, words(entry.reason_code)),
          h(
            "td",
            {},
            h(
              "span",
              { title: `Since ${new Date(entry.waiting_since).toLocaleString()}` },
              durationSince(entry.waiting_since),
            ),
          ),
          h("td", {}, claimText(entry.claim, context.username())),
        );
      }),
    );
    const page = position.cursors.length;
    summary.textContent =
      entries.length === 0
        ? page === 1
          ? "Nothing waits for review."
          : "Nothing more on this page."
        : `Page ${page}: ${entries.length} waiting. j and k (or the arrow keys) move, Enter opens.`;
    previous.disabled = page === 1;
    next.disabled = nextCursor === null;
    const keep = entries.some((entry) => entry.verification_id === position.selected);
    select(keep ? position.selected : entries[0]?.verification_id, false);
  };

  const load = async (announce: boolean) => {
    window.clearTimeout(timer);
    table.setAttribute("aria-busy", "true");
    // Keep the row in focus across a reload, which replaces the rows.
    const hadFocus = body.contains(document.activeElement);
    try {
      const page = await context.api.reviews(position.cursors.at(-1) ?? null);
      if (left) return;
      entries = page.data;
      nextCursor = page.next_cursor;
      render();
      if (hadFocus) select(position.selected, true);
      if (announce) context.say.info(summary.textContent ?? "");
    } catch (error) {
      if (!left) context.say.error(error instanceof ApiError ? error.message : "The queue could not be loaded.");
    } finally {
      table.setAttribute("aria-busy", "false");
      if (!left) schedule();
    }
  };
  // A hidden tab skips its turn rather than load a page nobody sees.
  const schedule = () => {
    timer = window.setTimeout(() => {
      if (document.visibilityState === "visible") void load(false);
      else schedule();
    }, REFRESH_MS);
  };

  refresh.addEventListener("click", () => void load(true));
  previous.addEventListener("click", () => {
    if (position.cursors.length > 1) position.cursors.pop();
    void load(true);
  });
  next.addEventListener("click", () => {
    if (nextCursor === null) return;
    position.cursors.push(nextCursor);
    void load(true);
  });
  heading.focus();
  void load(false).then(() => {
    // Focus goes to the selected row (back from an item: the row just left), ready for j/k.
    if (!left && position.selected) select(position.selected, true);
  });

  const move = (by: number) => {
    if (entries.length === 0) return;
    const at = entries.findIndex((entry) => entry.verification_id === position.selected);
    const to = at === -1 ? 0 : Math.min(entries.length - 1, Math.max(0, at + by));
    select(entries[to]?.verification_id, true);
  };

  return {
    key(event) {
      switch (event.key) {
        case "j":
        case "ArrowDown":
          move(1);
          return true;
        case "k":
        case "ArrowUp":
          move(-1);
          return true;
        case "Enter":
          // A focused link or button acts by itself; Enter anywhere else opens the selected row.
          if (document.activeElement?.closest("a, button") || !position.selected) return false;
          context.open(position.selected);
          return true;
        default:
          return false;
      }
    },
    leave() {
      left = true;
      window.clearTimeout(timer);
    },
  };
}
