/**
 * What the reviewer chose for this browser, kept in its storage (never the session's token):
 * whether a decision returns to the queue rather than opening the next item. Nothing is kept
 * until the reviewer changes it from its default.
 */
const THEN_QUEUE = "backoffice.after-decision";

export const settings = {
  /** True when a decision returns to the queue; by default the next unclaimed item opens, claimed. */
  thenQueue(): boolean {
    return localStorage.getItem(THEN_QUEUE) === "queue";
  },
  setThenQueue(queue: boolean): void {
    if (queue) localStorage.setItem(THEN_QUEUE, "queue");
    else localStorage.removeItem(THEN_QUEUE);
  },
};
