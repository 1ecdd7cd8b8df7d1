/**
 * One app's events of the last 30 days, as a developer debugs them: open one to see the JSON it
 * sends, every attempt (numbered across sends) with the headers it sent and what came back, and
 * send it now, also one that never had a destination. Texts in English and Turkish.
 */
import { type Child, h, timeOf } from "../common/dom.ts";
import { action, canChange, field, type PortalContext, reasonOf, table } from "./context.ts";
import { portalLanguage, say } from "./language.ts";
import type { App, AppEvent, EventAttempt, EventStatus, EventType } from "./wire.ts";

type Texts = { en: string; tr: string };

const TYPE_LABELS: Record<EventType, Texts> = {
  "verification.processing": { en: "Verification processing", tr: "Doğrulama işleniyor" },
  "verification.in_review": { en: "Verification in review", tr: "Doğrulama incelemede" },
  "verification.completed": { en: "Verification completed", tr: "Doğrulama tamamlandı" },
  "verification.failed": { en: "Verification failed", tr: "Doğrulama başarısız" },
  "verification.expired": { en: "Verification expired", tr: "Doğrulamanın süresi doldu" },
  "verification.redacted": { en: "Verification erased", tr: "Doğrulama silindi" },
  "webhook.test": { en: "Test event", tr: "Test olayı" },
};

const STATUS_LABELS: Record<EventStatus, Texts> = {
  pending: { en: "Waiting to be sent", tr: "Gönderilmeyi bekliyor" },
  delivered: { en: "Delivered", tr: "Teslim edildi" },
  parked: { en: "Failed, no more retries", tr: "Başarısız, yeniden denenmiyor" },
  no_destination: { en: "No destination was set", tr: "Hedef adres tanımlı değildi" },
};

const TEXTS = {
  title: { en: "Events", tr: "Olaylar" },
  intro: {
    en: "Every event of the last 30 days, also those from before a destination was set. Open one to see what it sends and each attempt, and send it again.",
    tr: "Son 30 günün tüm olayları; hedef adres tanımlanmadan önce oluşanlar da. Ne gönderdiğini ve her denemeyi görmek için birini açın, yeniden gönderin.",
  },
  type: { en: "Type", tr: "Tür" },
  anyType: { en: "All types", tr: "Tüm türler" },
  time: { en: "Time", tr: "Zaman" },
  event: { en: "Event", tr: "Olay" },
  status: { en: "Status", tr: "Durum" },
  attempts: { en: "Attempts", tr: "Denemeler" },
  open: { en: "Open", tr: "Aç" },
  payload: { en: "Payload", tr: "Gövde" },
  headers: { en: "Headers sent", tr: "Gönderilen başlıklar" },
  noHeaders: { en: "Not kept for this attempt.", tr: "Bu deneme için saklanmadı." },
  answer: { en: "Answer", tr: "Yanıt" },
  noAnswer: { en: "no answer", tr: "yanıt yok" },
  emptyBody: { en: "(empty body)", tr: "(boş gövde)" },
  noAttempt: { en: "Not sent yet.", tr: "Henüz gönderilmedi." },
  send: { en: "Send now", tr: "Şimdi gönder" },
  refresh: { en: "Reload events", tr: "Olayları yeniden yükle" },
  more: { en: "Load more", tr: "Daha fazla" },
  none: { en: "No events in the last 30 days.", tr: "Son 30 günde olay yok." },
  loadFailed: { en: "The events could not be loaded.", tr: "Olaylar yüklenemedi." },
} satisfies Record<string, Texts>;

const attemptTitle = (attempt: EventAttempt) =>
  say({ en: `Attempt ${attempt.attempt}`, tr: `Deneme ${attempt.attempt}` });
const queued = (eventId: string) =>
  say({
    en: `Event ${eventId} is queued; it is sent within a minute.`,
    tr: `${eventId} olayı sıraya alındı; bir dakika içinde gönderilir.`,
  });

/** The request the attempt made: its line, then the headers it sent when they were kept. */
function requestOf(attempt: EventAttempt): Child[] {
  const sent = Object.entries(attempt.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  return [
    h("pre", { class: "headers" }, [`POST ${attempt.url}`, ...sent].join("\n")),
    attempt.headers ? null : h("p", {}, say(TEXTS.noHeaders)),
  ];
}

/** One attempt, open: what it sent and what came back (a long line wraps inside its box). */
function attemptPart(attempt: EventAttempt): HTMLElement {
  const answer = attempt.response_status === null ? say(TEXTS.noAnswer) : `HTTP ${attempt.response_status}`;
  return h(
    "details",
    { class: "attempt", open: true },
    h(
      "summary",
      {},
      `${attemptTitle(attempt)} · `,
      timeOf(attempt.attempted_at),
      ` · ${attempt.outcome === "delivered" ? say(STATUS_LABELS.delivered) : answer} · ${attempt.latency_ms} ms`,
    ),
    attempt.error ? h("p", {}, attempt.error) : null,
    h("h5", {}, say(TEXTS.headers)),
    ...requestOf(attempt),
    h("h5", {}, say(TEXTS.answer)),
    attempt.response_body ? h("pre", {}, attempt.response_body) : h("p", {}, say(TEXTS.emptyBody)),
  );
}

/** What an opened event shows: its payload, its attempts, and (for those who may) send it now. */
function eventDetail(context: PortalContext, event: AppEvent, sent: () => void): HTMLElement {
  return h(
    "section",
    {
      class: "panel event-detail",
      id: "event-detail",
      tabindex: "-1",
      lang: portalLanguage(),
      "aria-labelledby": "event-detail-title",
    },
    h("h3", { id: "event-detail-title" }, `${say(TYPE_LABELS[event.type])} · `, h("code", {}, event.event_id)),
    h("p", {}, say(STATUS_LABELS[event.status]), " · ", timeOf(event.created_at)),
    canChange(context.me)
      ? h(
          "div",
          { class: "actions" },
          action(
            context,
            say(TEXTS.send),
            async () => {
              const answer = await context.api.sendEvent(event.event_id);
              context.say.info(queued(answer.event_id));
              sent();
            },
            { class: "primary", "aria-label": `${say(TEXTS.send)}: ${event.event_id}` },
          ),
        )
      : null,
    h(
      "details",
      { open: true },
      h("summary", {}, say(TEXTS.payload)),
      h("pre", { class: "payload" }, JSON.stringify(event.payload, null, 2)),
    ),
    h("h4", {}, say(TEXTS.attempts)),
    ...(event.attempts.length === 0 ? [h("p", {}, say(TEXTS.noAttempt))] : event.attempts.map(attemptPart)),
  );
}

/** The events section of the Webhooks screen for `app`; `reload` reads its first page again. */
export function eventsSection(context: PortalContext, app: App): { element: HTMLElement; reload: () => void } {
  const type = h(
    "select",
    { id: "event-type", name: "type" },
    h("option", { value: "" }, say(TEXTS.anyType)),
    ...(Object.keys(TYPE_LABELS) as EventType[]).map((value) => h("option", { value }, say(TYPE_LABELS[value]))),
  );
  const body = h("div", { "aria-live": "polite" });
  const detail = h("div");
  const more = h("button", { type: "button", hidden: true }, say(TEXTS.more));
  let cursor: string | null = null;
  let rows: AppEvent[] = [];
  let opened: string | undefined;

  const show = (event: AppEvent) => {
    opened = event.event_id;
    detail.replaceChildren(eventDetail(context, event, reload));
    detail.querySelector<HTMLElement>("#event-detail")?.focus();
  };
  const draw = () => {
    body.replaceChildren(
      rows.length === 0
        ? h("p", { class: "empty" }, say(TEXTS.none))
        : table(
            `${say(TEXTS.title)}: ${app.name}`,
            [say(TEXTS.time), say(TEXTS.event), say(TEXTS.status), say(TEXTS.attempts), ""],
            rows.map((event) => {
              const open = h(
                "button",
                { type: "button", "aria-label": `${say(TEXTS.open)}: ${event.event_id}` },
                say(TEXTS.open),
              );
              open.addEventListener("click", () => show(event));
              return [
                timeOf(event.created_at),
                h("span", {}, say(TYPE_LABELS[event.type]), h("br", {}), h("code", {}, event.event_id)),
                h("span", { class: `badge ${event.status}` }, say(STATUS_LABELS[event.status])),
                String(event.attempts.length),
                open,
              ];
            }),
          ),
    );
    more.hidden = cursor === null;
    const still = rows.find((event) => event.event_id === opened);
    if (still) detail.replaceChildren(eventDetail(context, still, reload));
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
    load(false).catch((error: unknown) => context.say.error(reasonOf(error, say(TEXTS.loadFailed))));
  }
  type.addEventListener("change", () => {
    opened = undefined;
    detail.replaceChildren();
    reload();
  });
  more.addEventListener("click", () => {
    load(true).catch((error: unknown) => context.say.error(reasonOf(error, say(TEXTS.loadFailed))));
  });
  const refresh = h("button", { type: "button", id: "events-refresh" }, say(TEXTS.refresh));
  refresh.addEventListener("click", reload);
  const element = h(
    "section",
    { class: "panel", "aria-labelledby": "events-title", lang: portalLanguage() },
    h("h2", { id: "events-title" }, say(TEXTS.title)),
    h("p", { class: "intro" }, say(TEXTS.intro)),
    h("div", { class: "inline-form" }, field(say(TEXTS.type), type), refresh),
    body,
    more,
    detail,
  );
  return { element, reload };
}
