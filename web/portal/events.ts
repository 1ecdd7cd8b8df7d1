/**
 * One app's events of the last 30 days, as a developer debugs them: open one to see the JSON it
 * sends, every attempt (numbered across sends) with the headers it sent and what came back, and
 * send it now, also one that never had a destination.
 */
import { type Child, h, timeOf } from "../common/dom.ts";
import { action, canChange, field, type PortalContext, table } from "./context.ts";
import { EVENT_TYPES } from "./order.ts";
import { problemText, t, text } from "./text.ts";
import type { App, AppEvent, EventAttempt, EventType } from "./wire.ts";

/** What came back to an attempt: its HTTP status, or that there was no answer. */
export function attemptAnswer(attempt: Pick<EventAttempt, "response_status">): string {
  return attempt.response_status === null ? t("common.no_answer") : `HTTP ${attempt.response_status}`;
}

/** Why an attempt failed, in the page's words: its status for an answer that was not 2xx. */
export function failureText(attempt: Pick<EventAttempt, "error_code" | "response_status">): string | null {
  switch (attempt.error_code) {
    case null:
      return null;
    case "http_status":
      return t("delivery_error.http_status", { status: attempt.response_status ?? "" });
    default:
      return t(`delivery_error.${attempt.error_code}`);
  }
}

/** The request the attempt made: its line, then the headers it sent when they were kept. */
function requestOf(attempt: EventAttempt): Child[] {
  const sent = Object.entries(attempt.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  return [
    h("pre", { class: "headers" }, [`POST ${attempt.url}`, ...sent].join("\n")),
    attempt.headers ? null : h("p", {}, t("events.no_headers")),
  ];
}

/** One attempt, open: what it sent and what came back (a long line wraps inside its box). */
function attemptPart(attempt: EventAttempt): HTMLElement {
  const answer = attemptAnswer(attempt);
  return h(
    "details",
    { class: "attempt", open: true },
    h(
      "summary",
      {},
      `${t("events.attempt", { number: attempt.attempt })} · `,
      timeOf(attempt.attempted_at),
      ` · ${attempt.outcome === "delivered" ? text.label("delivery_outcome", attempt.outcome) : answer} · ${attempt.latency_ms} ms`,
    ),
    attempt.error_code ? h("p", {}, failureText(attempt)) : null,
    h("h5", {}, t("events.headers")),
    ...requestOf(attempt),
    h("h5", {}, t("events.answer")),
    attempt.response_body ? h("pre", {}, attempt.response_body) : h("p", {}, t("common.empty_body")),
  );
}

/** What an opened event shows: its payload, its attempts, and (for those who may) send it now. */
function eventDetail(context: PortalContext, event: AppEvent, sent: (event: AppEvent) => void): HTMLElement {
  return h(
    "section",
    {
      class: "panel event-detail",
      id: "event-detail",
      tabindex: "-1",
      "aria-labelledby": "event-detail-title",
    },
    h("h3", { id: "event-detail-title" }, `${text.label("event_type", event.type)} · `, h("code", {}, event.event_id)),
    h("p", {}, text.label("event_status", event.status), " · ", timeOf(event.created_at)),
    canChange(context.me)
      ? h(
          "div",
          { class: "actions" },
          action(
            context,
            t("events.send"),
            async () => {
              const answer = await context.api.sendEvent(event.event_id);
              context.say.info(t("events.queued", { id: answer.event_id }));
              sent(event);
            },
            { class: "primary", "aria-label": t("events.send_named", { id: event.event_id }) },
          ),
        )
      : null,
    h(
      "details",
      { open: true },
      h("summary", {}, t("events.payload")),
      h("pre", { class: "payload" }, JSON.stringify(event.payload, null, 2)),
    ),
    h("h4", {}, t("events.attempts")),
    ...(event.attempts.length === 0 ? [h("p", {}, t("events.not_sent"))] : event.attempts.map(attemptPart)),
  );
}

/** How long the page waits for a sent event's attempt to come back before it stops looking. */
const ATTEMPT_WAIT_MS = 30_000;
const ATTEMPT_POLL_MS = 1_000;

/**
 * After a send: reads the app's attempts until the event's next one is there (at most
 * `ATTEMPT_WAIT_MS`), then says how it went and calls `made`; says it is still queued otherwise.
 */
async function awaitAttempt(context: PortalContext, app: App, event: AppEvent, made: () => void): Promise<void> {
  const number = event.attempts.length + 1;
  const deadline = Date.now() + ATTEMPT_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, ATTEMPT_POLL_MS));
    const { data } = await context.api.deliveries(app.app_id, undefined, null);
    const attempt = data.find((one) => one.event_id === event.event_id && one.attempt === number);
    if (attempt) {
      const said = {
        id: event.event_id,
        number,
        answer: attemptAnswer(attempt),
        outcome: text.label("delivery_outcome", attempt.outcome),
      };
      if (attempt.outcome === "delivered") context.say.info(t("events.attempt_made", said));
      else context.say.error(t("events.attempt_made", said));
      made();
      return;
    }
  }
  context.say.info(t("events.attempt_later", { id: event.event_id }));
}

/**
 * The events section of the Webhooks screen for `app`; `reload` reads its first page again, and
 * `attempted` hears that an attempt was made (so the deliveries can be read again too).
 */
export function eventsSection(
  context: PortalContext,
  app: App,
  attempted: () => void,
): { element: HTMLElement; reload: () => void } {
  const type = h(
    "select",
    { id: "event-type", name: "type" },
    h("option", { value: "" }, t("events.any_type")),
    ...EVENT_TYPES.map((value) => h("option", { value }, text.label("event_type", value))),
  );
  const body = h("div", { "aria-live": "polite" });
  const detail = h("div");
  const more = h("button", { type: "button", hidden: true }, t("common.load_more"));
  let cursor: string | null = null;
  let rows: AppEvent[] = [];
  let opened: string | undefined;

  const sent = (event: AppEvent) => {
    const made = () => {
      reload();
      attempted();
    };
    awaitAttempt(context, app, event, made).catch((error: unknown) =>
      context.say.error(problemText(error, "events.load_failed")),
    );
  };
  const show = (event: AppEvent) => {
    opened = event.event_id;
    detail.replaceChildren(eventDetail(context, event, sent));
    detail.querySelector<HTMLElement>("#event-detail")?.focus();
  };
  const draw = () => {
    body.replaceChildren(
      rows.length === 0
        ? h("p", { class: "empty" }, t("events.none"))
        : table(
            t("events.caption", { app: app.name }),
            [t("events.time"), t("events.event"), t("events.status"), t("events.attempts"), ""],
            rows.map((event) => {
              const open = h(
                "button",
                { type: "button", "aria-label": t("events.open_named", { id: event.event_id }) },
                t("events.open"),
              );
              open.addEventListener("click", () => show(event));
              return [
                timeOf(event.created_at),
                h("span", {}, text.label("event_type", event.type), h("br", {}), h("code", {}, event.event_id)),
                h("span", { class: `badge ${event.status}` }, text.label("event_status", event.status)),
                String(event.attempts.length),
                open,
              ];
            }),
          ),
    );
    more.hidden = cursor === null;
    const still = rows.find((event) => event.event_id === opened);
    if (still) detail.replaceChildren(eventDetail(context, still, sent));
  };
  const load = async (next: boolean) => {
    const page = await context.api.events(
      app.app_id,
      (type.value || undefined) as EventType | undefined,
      next ? cursor : null,
    );
    rows = next ? [...rows, ...page.data] : page.data;
    cursor = page.next_cursor;
    draw();
  };
  function reload(): void {
    load(false).catch((error: unknown) => context.say.error(problemText(error, "events.load_failed")));
  }
  type.addEventListener("change", () => {
    opened = undefined;
    detail.replaceChildren();
    reload();
  });
  more.addEventListener("click", () => {
    load(true).catch((error: unknown) => context.say.error(problemText(error, "events.load_failed")));
  });
  const refresh = h("button", { type: "button", id: "events-refresh" }, t("events.reload"));
  refresh.addEventListener("click", reload);
  const element = h(
    "section",
    { class: "panel", "aria-labelledby": "events-title" },
    h("h2", { id: "events-title" }, t("events.title")),
    h("p", { class: "intro" }, t("events.intro")),
    h("div", { class: "inline-form" }, field(t("events.type"), type), refresh),
    body,
    more,
    detail,
  );
  return { element, reload };
}
