/**
 * The organisation's recent verifications at once; one form that looks a verification up across
 * its apps by id, request id or reference, or searches one app by reference, status or creation
 * day; and reading one.
 */
import { checkDetailText, type DetailedCheck } from "../common/check-details.ts";
import { h, localDayStart, timeOf } from "../common/dom.ts";
import { field, type PortalContext, table } from "./context.ts";
import { attemptAnswer } from "./events.ts";
import { STATUSES } from "./order.ts";
import { fieldErrorsOf } from "./refusal.ts";
import { problemText, t, text } from "./text.ts";
import type { App, AppEvent, EventAttempt, LookupMatch, Search, Verification } from "./wire.ts";

/** A request a lookup found by its id: what it asked, how it was answered (a refusal by its labels, field by field), when. */
function requestSummary(request: NonNullable<LookupMatch["request"]>): HTMLElement {
  return h(
    "span",
    { class: "request" },
    h("code", {}, `${request.method} ${request.path}`),
    ` · ${request.status}`,
    request.code ? ` · ${text.label("api_problem", request.code)}` : "",
    " · ",
    timeOf(request.at),
    fieldErrorsOf(request),
  );
}

/**
 * What a verification came to: its result once it has one, and why when the reason says more than
 * the status and result do (a rejection's cause, a review's); none before either.
 */
function outcomeOf(verification: Verification): string[] {
  const { status, result, reason_code: reason } = verification;
  return [
    ...(result ? [text.label("result", result)] : []),
    ...(reason !== status && reason !== result ? [text.label("reason", reason)] : []),
  ];
}

/** Where a verification stands, in one line: its status, then what it came to. */
function standing(verification: Verification): string {
  return [text.label("status", verification.status), ...outcomeOf(verification)].join(" · ");
}

/** A verification's id with an "Open" button the id describes (`codeId` names the id's element). */
export function verificationOpener(codeId: string, id: string, open: () => void): HTMLElement {
  const idCell = h("code", { id: codeId }, id);
  const button = h("button", { type: "button", "aria-describedby": codeId }, t("lookup.open"));
  button.addEventListener("click", open);
  return h("span", {}, idCell, " ", button);
}

/**
 * What a lookup found, across the organisation's apps: each with its app, where it stands and what
 * found it (a request with why it was refused). Each opens by an "Open" button described by its id.
 */
function matchesTable(caption: string, matches: LookupMatch[], open: (id: string, appId: string) => void) {
  if (matches.length === 0) return h("p", { class: "empty" }, t("lookup.none"));
  return table(
    caption,
    [
      t("common.app"),
      t("lookup.verification"),
      t("lookup.reference"),
      t("lookup.status"),
      t("lookup.created"),
      t("lookup.matched_by"),
    ],
    matches.map((match, index) => {
      const found = match.verification;
      return [
        match.app_name,
        found
          ? verificationOpener(`lookup-id-${index}`, found.verification_id, () =>
              open(found.verification_id, match.app_id),
            )
          : "—",
        found?.external_reference_id ?? "—",
        found ? standing(found) : "—",
        found ? timeOf(found.created_at) : "—",
        h(
          "span",
          {},
          text.label("matched_by", match.matched_by),
          ...(match.request ? [h("br", {}), requestSummary(match.request)] : []),
        ),
      ];
    }),
  );
}

/** One attempt to deliver an event: its number, when, what came back, how it ended, how long it took. */
function attemptLine(attempt: EventAttempt): HTMLElement {
  const answer = attemptAnswer(attempt);
  return h(
    "li",
    {},
    `${t("events.attempt", { number: attempt.attempt })} · `,
    timeOf(attempt.attempted_at),
    ` · ${answer} · `,
    h("span", { class: `badge ${attempt.outcome}` }, text.label("delivery_outcome", attempt.outcome)),
    ` · ${attempt.latency_ms} ms`,
  );
}

/** One event of the timeline: what it said and when, its state, and every attempt to deliver it. */
function timelineEvent(event: AppEvent): HTMLElement {
  return h(
    "li",
    { class: "timeline-event" },
    h(
      "p",
      {},
      h("strong", {}, text.label("event_type", event.type)),
      " · ",
      timeOf(event.created_at),
      " · ",
      h("span", { class: `badge ${event.status}` }, text.label("event_status", event.status)),
      " ",
      h("code", {}, event.event_id),
    ),
    event.attempts.length === 0
      ? h("p", { class: "muted" }, t("events.not_sent"))
      : h(
          "ol",
          { class: "attempts", "aria-label": t("timeline.attempts", { event: event.event_id }) },
          ...event.attempts.map(attemptLine),
        ),
  );
}

/** The verification's events in the order they happened, each with its attempts, read from its app's events. */
function timeline(context: PortalContext, appId: string, verificationId: string): HTMLElement {
  const body = h("div", { "aria-busy": "true" });
  context.api
    .timeline(appId, verificationId)
    .then((page) => {
      body.replaceChildren(
        page.data.length === 0
          ? h("p", { class: "empty" }, t("timeline.none"))
          : h("ol", { class: "timeline" }, ...page.data.map(timelineEvent)),
      );
    })
    .catch((error: unknown) => context.say.error(problemText(error, "timeline.load_failed")))
    .finally(() => body.removeAttribute("aria-busy"));
  return h(
    "section",
    { "aria-labelledby": "timeline-title" },
    h("h3", { id: "timeline-title" }, t("timeline.title")),
    h("p", { class: "intro" }, t("timeline.intro")),
    body,
  );
}

function detail(verification: Verification, events: HTMLElement): HTMLElement {
  const status = text.label("status", verification.status);
  return h(
    "section",
    { class: "panel", id: "verification-detail", tabindex: "-1", "aria-labelledby": "detail-title" },
    h("h2", { id: "detail-title" }, verification.original_filename ?? verification.verification_id),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t("detail.verification")),
      h("dd", {}, h("code", {}, verification.verification_id)),
      h("dt", {}, t("detail.reference")),
      h("dd", {}, verification.external_reference_id ?? "—"),
      h("dt", {}, t("detail.type")),
      h("dd", {}, text.label("document_type", verification.document_type)),
      h("dt", {}, t("detail.status")),
      h(
        "dd",
        {},
        verification.result
          ? t("detail.status_result", { status, result: text.label("result", verification.result) })
          : status,
      ),
      h("dt", {}, t("detail.reason")),
      h("dd", {}, text.label("reason", verification.reason_code)),
      ...(verification.fraud_signals.length === 0
        ? []
        : [
            h("dt", {}, t("detail.signals")),
            h("dd", {}, verification.fraud_signals.map((signal) => text.label("signal", signal)).join(", ")),
          ]),
      h("dt", {}, t("detail.created")),
      h("dd", {}, timeOf(verification.created_at)),
      h("dt", {}, t("detail.document")),
      h("dd", {}, verification.file_size_bytes === null ? t("detail.by_keys") : t("detail.uploaded")),
      ...(verification.max_document_age_days === null
        ? []
        : [
            h("dt", {}, t("detail.max_age")),
            h("dd", {}, t("detail.max_age_value", { days: String(verification.max_document_age_days) })),
          ]),
    ),
    verification.checks.length === 0
      ? null
      : table(
          t("detail.checks"),
          [t("detail.check"), t("detail.outcome"), t("detail.detail")],
          verification.checks.map((check) => [
            text.label("check", check.name),
            h("span", { class: `badge ${check.outcome}` }, text.label("check_outcome", check.outcome)),
            detailSpan(check),
          ]),
        ),
    events,
  );
}

/** A check's detail in the portal's language (an old check's own English sentence marked so). */
function detailSpan(check: DetailedCheck): HTMLElement {
  const shown = checkDetailText(check, text.language());
  return h("span", { lang: shown.lang }, shown.text);
}

/** The one form's fields: what to find, in which app, and what narrows one app's verifications. */
function findFields(apps: App[]) {
  return {
    q: h("input", { id: "lookup-q", name: "q", maxlength: "128", autocomplete: "off" }),
    app: h(
      "select",
      { id: "find-app", name: "app" },
      h("option", { value: "" }, t("find.all_apps")),
      ...apps.map((app) => h("option", { value: app.app_id }, app.name)),
    ),
    status: h(
      "select",
      { id: "search-status", name: "status" },
      h("option", { value: "" }, t("search.any_status")),
      ...STATUSES.map((value) => h("option", { value }, text.label("status", value))),
    ),
    from: h("input", { id: "search-from", name: "from", type: "date" }),
    to: h("input", { id: "search-to", name: "to", type: "date" }),
  };
}

type FindFields = ReturnType<typeof findFields>;

function findForm({ q, app, status, from, to }: FindFields, recent: HTMLButtonElement): HTMLFormElement {
  return h(
    "form",
    { class: "search", role: "search", "aria-labelledby": "lookup-title" },
    field(t("lookup.query"), q, t("lookup.hint")),
    field(t("common.app"), app, t("find.app_hint")),
    field(t("search.status"), status),
    field(t("search.from"), from),
    field(t("search.to"), to),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, t("lookup.submit")), recent),
  );
}

/** Whether the fields narrow by more than what to find: a status or a day. */
function narrowed({ status, from, to }: FindFields): boolean {
  return Boolean(status.value || from.value || to.value);
}

/** What the fields ask of `appId`'s verifications: only what is filled in, `q` as a reference. */
function searchOf({ q, status, from, to }: FindFields, appId: string): Search {
  return {
    app_id: appId,
    ...(q.value.trim() ? { external_reference_id: q.value.trim() } : {}),
    ...(status.value ? { status: status.value as Search["status"] } : {}),
    ...(from.value ? { created_after: localDayStart(from.value) } : {}),
    ...(to.value ? { created_before: localDayStart(to.value, 1) } : {}),
  };
}

/** The verifications found, each opened by its id; a note when there are none. */
function resultsOf(rows: Verification[], open: (verification: Verification) => void): HTMLElement {
  if (rows.length === 0) return h("p", { class: "empty" }, t("search.none"));
  return table(
    t("search.caption"),
    [
      t("search.verification"),
      t("search.reference_column"),
      t("search.status_column"),
      t("search.result"),
      t("search.created"),
    ],
    rows.map((verification) => {
      const link = h("button", { type: "button", class: "link" }, verification.verification_id);
      link.addEventListener("click", () => open(verification));
      return [
        link,
        verification.external_reference_id ?? "—",
        text.label("status", verification.status),
        outcomeOf(verification).join(" · ") || "—",
        timeOf(verification.created_at),
      ];
    }),
  );
}

/** Reads one verification of `appId` and shows it, with its events, in `shown`. */
export function openVerification(context: PortalContext, shown: HTMLElement, id: string, appId: string): void {
  context.api
    .verification(id)
    .then((verification) => {
      shown.replaceChildren(detail(verification, timeline(context, appId, id)));
      shown.querySelector<HTMLElement>("#verification-detail")?.focus();
    })
    .catch((error: unknown) => context.say.error(problemText(error, "detail.load_failed")));
}

/**
 * The Verifications screen: one form. What to find alone is looked up in every app, as a
 * verification id, a request id or a reference, exactly (the most recent ones when empty); an app
 * alone lists its verifications, and a status or a day narrows them, `q` then as a reference (an
 * id is always looked up as it is: nothing narrows one verification).
 */
export async function showVerifications(context: PortalContext): Promise<void> {
  const apps = await context.apps();
  const fields = findFields(apps);
  const recent = h("button", { type: "button" }, t("lookup.show_recent"));
  const form = findForm(fields, recent);
  const heading = h("h3", { id: "lookup-results-title" }, t("lookup.recent"));
  const results = h("div", { "aria-live": "polite" });
  const more = h("button", { type: "button", hidden: true }, t("common.load_more"));
  const shown = h("div");
  let rows: Verification[] = [];
  let cursor: string | null = null;
  let search: Search | undefined;

  const open = (id: string, appId: string) => openVerification(context, shown, id, appId);
  const lookup = async (q: string | undefined) => {
    search = undefined;
    more.hidden = true;
    heading.textContent = t(q ? "lookup.found" : "lookup.recent");
    const page = await context.api.lookup(q);
    results.replaceChildren(matchesTable(heading.textContent, page.data, open));
  };
  const searchPage = async (next: boolean) => {
    if (!search) return;
    const page = await context.api.search(search, next ? cursor : null);
    rows = next ? [...rows, ...page.data] : page.data;
    cursor = page.next_cursor;
    const appId = search.app_id;
    heading.textContent = t("lookup.found");
    results.replaceChildren(resultsOf(rows, (verification) => open(verification.verification_id, appId)));
    more.hidden = cursor === null;
  };
  const find = (): Promise<void> => {
    const q = fields.q.value.trim();
    const appId = fields.app.value;
    if (appId) context.selected = appId;
    // What to find alone is looked up across every app (an app alone lists that app's).
    if (q.startsWith("ver_") || (!narrowed(fields) && (q || !appId))) return lookup(q || undefined);
    if (!appId) {
      context.say.error(t("find.choose_app"));
      return Promise.resolve();
    }
    search = searchOf(fields, appId);
    return searchPage(false);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    context.say.clear();
    shown.replaceChildren();
    find().catch((error: unknown) => context.say.error(problemText(error, "lookup.failed")));
  });
  recent.addEventListener("click", () => {
    form.reset();
    context.say.clear();
    shown.replaceChildren();
    lookup(undefined).catch((error: unknown) => context.say.error(problemText(error, "lookup.failed")));
  });
  more.addEventListener("click", () => {
    searchPage(true).catch((error: unknown) => context.say.error(problemText(error, "search.more_failed")));
  });
  lookup(undefined).catch((error: unknown) => context.say.error(problemText(error, "lookup.failed")));
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "verifications-title" },
      h("h1", { id: "verifications-title", tabindex: "-1" }, t("verifications.title")),
      h(
        "section",
        { class: "panel", id: "lookup", "aria-labelledby": "lookup-title" },
        h("h2", { id: "lookup-title" }, t("lookup.title")),
        form,
        heading,
        results,
        more,
      ),
      shown,
    ),
  );
}
