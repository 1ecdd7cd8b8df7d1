/**
 * One verification in review: the two copies side by side in the viewer (viewer.ts), what the
 * checks found, and beside the decision the claim, its countdown and what the last action said.
 * The form opens only while the reviewer holds the claim, and closes the moment it lapses. The
 * copies load once per visit (each view is audited); everything else reloads after an action, so
 * a refusal always shows the current state.
 */
import { checkDetailText, type DetailedCheck } from "../common/check-details.ts";
import { SCHEMA_FIELDS } from "../common/document-types.ts";
import { type Announcer, announcer, clockText, h, timeOf } from "../common/dom.ts";
import { countdown } from "../common/i18n.ts";
import { ApiError } from "../common/problem.ts";
import { type AskAgainPanel, askAgainPanel } from "./ask-again.ts";
import { type DecisionForm, decisionForm, REASON_KEYS } from "./decision.ts";
import { type ConsoleContext, heldByAnother, type Screen } from "./screen.ts";
import { settings } from "./settings.ts";
import { problemText, t, text } from "./text.ts";
import type { TextKey } from "./text-en.ts";
import { showViewer, type Viewer } from "./viewer.ts";
import type { DecisionBody, ProblemCode, RejectionCode, StaffVerification } from "./wire.ts";

/** Refusals that mean the page shows an older state than the API's: someone else's claim, a lapsed one, a change since. */
const STALE: ReadonlySet<string> = new Set<ProblemCode>([
  "review_claimed",
  "review_not_claimed",
  "verification_not_in_review",
  "sequence_mismatch",
]);

/** Whether the item's details are unfolded: as the reviewer last left them, for the page's life. */
let detailsOpen = false;

/** The countdown warns this long before the claim lapses. */
const WARN_MS = 60_000;

function fieldValue(value: unknown): string | Node {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? t("item.yes") : t("item.no");
  if (typeof value !== "string") return JSON.stringify(value);
  // A date as the document prints it (DD.MM.YYYY), the API's ISO date on hover.
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return date ? h("time", { datetime: value, title: value }, `${date[3]}.${date[2]}.${date[1]}`) : value;
}

/** `fields` in the order the schema's layout shows them (as the document prints them); a field it does not list after them. */
function inSchemaOrder(schema: string, fields: Record<string, unknown>): [string, unknown][] {
  const order: readonly string[] = schema in SCHEMA_FIELDS ? SCHEMA_FIELDS[schema as keyof typeof SCHEMA_FIELDS] : [];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.entries(fields).sort(([a], [b]) => rank(a) - rank(b));
}

/** The checks in order, each with its outcome in words (not colour alone). */
function checksTable(verification: StaffVerification): HTMLElement {
  if (verification.checks.length === 0) return h("p", { class: "muted" }, t("item.checks_none"));
  const columns: TextKey[] = ["item.check.name", "item.check.outcome", "item.check.detail"];
  return h(
    "table",
    { class: "checks" },
    h("thead", {}, h("tr", {}, ...columns.map((name) => h("th", { scope: "col" }, t(name))))),
    h(
      "tbody",
      {},
      ...verification.checks.map((check) =>
        h(
          "tr",
          {},
          h("td", {}, text.label("check", check.name)),
          h("td", {}, h("span", { class: `outcome ${check.outcome}` }, text.label("outcome", check.outcome))),
          detailCell(check),
        ),
      ),
    ),
  );
}

/** A check's detail in the console's language (an old check's own English sentence marked so). */
function detailCell(check: DetailedCheck): HTMLElement {
  const shown = checkDetailText(check, text.language());
  return h("td", { lang: shown.lang }, shown.text);
}

function fieldsList(verification: StaffVerification): HTMLElement {
  const { extracted } = verification;
  const fields = extracted ? inSchemaOrder(extracted.schema, extracted.fields) : [];
  if (fields.length === 0) return h("p", { class: "muted" }, t("item.fields_none"));
  return h(
    "dl",
    { class: "fields" },
    ...fields.flatMap(([name, value]) => [h("dt", {}, text.label("field", name)), h("dd", {}, fieldValue(value))]),
  );
}

/** Each reason by its label; in English with the API's sentence too (the API writes it in English). */
function reasonsList(verification: StaffVerification): HTMLElement {
  const english = text.language() === "en";
  const items = [
    ...verification.reasons.map((reason) =>
      h("li", {}, h("strong", {}, text.label("reason", reason.code)), english ? `: ${reason.message}` : null),
    ),
    ...verification.fraud_signals.map((signal) =>
      h("li", { class: "warning" }, t("item.fraud_signal", { signal: text.label("signal", signal) })),
    ),
  ];
  return items.length > 0
    ? h("ul", { class: "reasons" }, ...items)
    : h("p", { class: "muted" }, t("item.reasons_none"));
}

/** The elements of the screen that the steps below fill in. */
interface ItemParts {
  article: HTMLElement;
  heading: HTMLElement;
  back: HTMLButtonElement;
  /** The one line the item's facts, fields, checks and reasons fold to until opened. */
  summary: HTMLElement;
  claim: HTMLElement;
  feedback: [HTMLElement, HTMLElement];
  claimStatus: HTMLElement;
  claimLeft: HTMLElement;
  claimButton: HTMLButtonElement;
  documents: HTMLElement;
  details: HTMLElement;
  /** The claim, what it and the decision said, and the form (or the outcome): beside the copies, or a bar along a phone's bottom. */
  outcome: HTMLElement;
}

/** One open item: what it shows, the verification as last read, the claim's timer, and whether another screen took its place. */
interface Item {
  context: ConsoleContext;
  id: string;
  parts: ItemParts;
  form: DecisionForm;
  /** Asking e-Devlet again, for an item it gave no answer for. */
  recheck: AskAgainPanel;
  /** Reads the item again while e-Devlet's answer is awaited, or when it may be asked again. */
  watch: number | undefined;
  /** How often it was read again for that answer. */
  polls: number;
  /** What the claim and the decision said, beside the form. */
  say: Announcer;
  current: StaffVerification | undefined;
  /** When the reviewer's own claim lapses (ms), while they hold it. */
  holdsUntil: number | undefined;
  warned: boolean;
  timer: number | undefined;
  left: boolean;
  /** The copies, once the verification was first read. */
  viewer: Viewer | undefined;
}

/** The screen's frame, empty until the verification is read; the claim and its messages sit with the decision. */
function itemParts(id: string, admin: boolean): ItemParts {
  const parts = {
    heading: h("h1", { id: "item-title", tabindex: "-1" }, id),
    back: h("button", { type: "button" }, t("item.back"), " ", h("kbd", { "aria-hidden": "true" }, "Esc")),
    summary: h("summary", { class: "summary-line" }),
    claimStatus: h("p", { id: "claim-status" }),
    claimLeft: h("p", { id: "claim-left", class: "muted" }),
    claimButton: h("button", { type: "button", "aria-describedby": "claim-status" }, t("claim.take")),
    documents: h("section", { class: "documents", "aria-label": t("item.documents") }),
    details: h("div", { class: "details" }),
    outcome: h("div", { class: "decision-panel" }),
  };
  const feedback: [HTMLElement, HTMLElement] = [
    h("p", { id: "item-status", class: "message info", role: "status", "aria-live": "polite" }),
    h("p", { id: "item-alert", class: "message error", role: "alert", "aria-live": "assertive" }),
  ];
  const claim = h(
    "section",
    { class: "claim", "aria-label": t("item.claim") },
    parts.claimStatus,
    parts.claimLeft,
    parts.claimButton,
  );
  const about = h("details", { class: "about", open: detailsOpen }, parts.summary, parts.details);
  about.addEventListener("toggle", () => {
    detailsOpen = about.open;
  });
  const article = h(
    "article",
    { class: "panel item", "aria-labelledby": "item-title", "aria-busy": "true" },
    h(
      "div",
      { class: "toolbar" },
      parts.back,
      parts.heading,
      // Who claimed, decided and looked at it: the audit trail of this verification, for admins.
      admin ? h("a", { href: `#/audit?verification=${encodeURIComponent(id)}` }, t("item.audit_trail")) : "",
    ),
    about,
    parts.documents,
    parts.outcome,
  );
  return { article, claim, feedback, ...parts };
}

/** The one line the details fold to: the reason, the type and the app. */
function summaryLine(verification: StaffVerification): string {
  const english = text.language() === "en";
  return [
    english ? verification.message : text.label("reason", verification.reason_code),
    text.label("type", verification.document_type),
    verification.app_name,
  ].join(" · ");
}

/** The verification's facts, every code by its label. */
function factsOf(verification: StaffVerification): HTMLElement {
  const facts: [TextKey, string][] = [
    ["item.fact.status", text.label("status", verification.status)],
    ["item.fact.reason", text.label("reason", verification.reason_code)],
    ["item.fact.type", text.label("type", verification.document_type)],
    // The app by its name, as the queue shows it, and its id to search by.
    [
      "item.fact.app",
      verification.app_name === verification.app_id
        ? verification.app_id
        : `${verification.app_name} (${verification.app_id})`,
    ],
    [
      "item.fact.file",
      // A verification by its keys had no file: the issuer's copy is all there is.
      verification.file_size_bytes === null
        ? t("item.fact.no_file")
        : t("item.fact.file_value", {
            name: verification.original_filename ?? t("item.fact.erased"),
            size: verification.file_size_bytes.toLocaleString(text.language()),
          }),
    ],
    ["item.fact.reference", verification.external_reference_id ?? "—"],
    ...(verification.max_document_age_days === null
      ? []
      : ([
          ["item.fact.max_age", t("item.fact.max_age_value", { days: String(verification.max_document_age_days) })],
        ] as [TextKey, string][])),
  ];
  return h(
    "dl",
    { class: "facts" },
    ...facts.flatMap(([term, value]) => [h("dt", {}, t(term)), h("dd", {}, value)]),
    h("dt", {}, t("item.fact.since")),
    h("dd", {}, verification.review ? timeOf(verification.review.required_at) : "—"),
  );
}

/** Who holds the claim and until when, the button that takes or renews it, and the form open only for its holder. */
function showClaim(item: Item, verification: StaffVerification): void {
  const { parts } = item;
  const { claim } = verification;
  const inReview = verification.status === "in_review";
  const mine = inReview && claim?.claimed_by === item.context.username() && Date.parse(claim.expires_at) > Date.now();
  if (claim && inReview) {
    const at = timeOf(claim.expires_at);
    parts.claimStatus.replaceChildren(
      ...(mine
        ? text.nodes("claim.mine", { time: at })
        : text.nodes("claim.theirs", { time: at, holder: claim.claimed_by })),
    );
  } else {
    parts.claimStatus.replaceChildren(inReview ? t("claim.free") : t("claim.not_in_review"));
  }
  parts.claimButton.replaceChildren(
    mine ? t("claim.renew") : t("claim.take"),
    " ",
    h("kbd", { "aria-hidden": "true" }, mine ? "n" : "c"),
  );
  parts.claimButton.hidden = !inReview;
  item.holdsUntil = mine && claim ? Date.parse(claim.expires_at) : undefined;
  item.warned = false;
  item.form.enable(mine);
  tick(item);
}

/** Every second while the reviewer holds the claim: the time left, a warning a minute before, and the form closed when it lapses. */
function tick(item: Item): void {
  window.clearTimeout(item.timer);
  const { holdsUntil, parts } = item;
  if (holdsUntil === undefined || item.left) {
    parts.claimLeft.textContent = "";
    return;
  }
  const left = holdsUntil - Date.now();
  if (left <= 0) {
    lapsed(item, holdsUntil);
    return;
  }
  parts.claimLeft.textContent = t("claim.left", { left: countdown(left) });
  if (left <= WARN_MS && !item.warned) {
    item.warned = true;
    item.say.error(t("claim.warning"));
  }
  item.timer = window.setTimeout(() => tick(item), Math.min(1_000, left));
}

/** The claim lapsed on screen: said at once, the form closed, the button offers to claim again. */
function lapsed(item: Item, at: number): void {
  const { parts } = item;
  item.holdsUntil = undefined;
  item.form.enable(false);
  const iso = new Date(at).toISOString();
  parts.claimStatus.textContent = t("claim.lapsed", { time: clockText(iso) });
  parts.claimLeft.textContent = "";
  parts.claimButton.replaceChildren(t("claim.take"), " ", h("kbd", { "aria-hidden": "true" }, "c"));
  item.say.error(t("claim.lapsed", { time: iso }));
}

/** A titled section of the details. */
function detailSection(id: string, title: TextKey, content: HTMLElement): HTMLElement {
  return h("section", { "aria-labelledby": id }, h("h2", { id }, t(title)), content);
}

/** How a verification that left review ended, and who decided it when a person did. */
function decidedSection(verification: StaffVerification): HTMLElement {
  const { decision } = verification;
  const result = verification.result
    ? text.label("result", verification.result)
    : text.label("reason", verification.reason_code);
  return h(
    "section",
    { class: "decided", "aria-labelledby": "decided-title" },
    h("h2", { id: "decided-title" }, t("item.outcome")),
    h("p", {}, t("item.outcome_text", { status: text.label("status", verification.status), result })),
    decision ? h("p", {}, t("item.decided_by", { name: decision.decided_by })) : null,
    decision?.note ? h("blockquote", {}, decision.note) : null,
  );
}

/** Draws the verification as just read: the summary, the details, the claim beside the form, or the outcome. */
function showVerification(item: Item, verification: StaffVerification): void {
  const { parts } = item;
  item.current = verification;
  parts.summary.replaceChildren(summaryLine(verification));
  parts.details.replaceChildren(
    detailSection("facts-title", "item.facts", factsOf(verification)),
    detailSection("fields-title", "item.fields", fieldsList(verification)),
    detailSection("checks-title", "item.checks", checksTable(verification)),
    detailSection("reasons-title", "item.reasons", reasonsList(verification)),
  );
  showClaim(item, verification);
  item.recheck.show(verification, item.holdsUntil !== undefined);
  watchRecheck(item, verification);
  const outcome = [
    parts.claim,
    ...parts.feedback,
    verification.status === "in_review" ? item.form.element : decidedSection(verification),
  ];
  // Put back only when it changed: moving the form takes the focus out of it, and a reading that
  // lands while the reviewer is in the form (a claim's, a renewal's) would leave them on the page.
  const placed = parts.outcome.children;
  if (outcome.length !== placed.length || outcome.some((part, index) => placed[index] !== part)) {
    parts.outcome.replaceChildren(...outcome);
  }
  parts.article.setAttribute("aria-busy", "false");
}

/**
 * While e-Devlet's answer to asking again is awaited, the item is read again after 2 s, then
 * less and less often (each reading is audited), at most 15 s apart: it completes, or shows the
 * new checks, when the answer arrives. A wait before asking again is read again when it ends.
 * The copies are drawn again when the answer brought the issuer's.
 */
function watchRecheck(item: Item, verification: StaffVerification): void {
  window.clearTimeout(item.watch);
  item.watch = undefined;
  const recheck = verification.status === "in_review" ? verification.issuer_recheck : null;
  const awaited = recheck?.under_way === true;
  item.polls = awaited ? item.polls + 1 : 0;
  if (!recheck) return;
  const wait = awaited
    ? Math.min(FIRST_POLL_MS * 2 ** (item.polls - 1), LAST_POLL_MS)
    : Date.parse(recheck.allowed_from) - Date.now();
  if (wait > 0) item.watch = window.setTimeout(() => void reload(item), wait);
}

/** How soon, and at most how far apart, an item whose e-Devlet answer is awaited is read again. */
const FIRST_POLL_MS = 2_000;
const LAST_POLL_MS = 15_000;

/** Asks e-Devlet again for the item; a refusal because the page is stale reads it again. */
async function askAgain(item: Item): Promise<void> {
  item.recheck.busy(true);
  try {
    const asked = await item.context.api.askIssuerAgain(item.id);
    item.say.info(t("recheck.sent"));
    if (!item.left) showVerification(item, asked);
  } catch (error) {
    await reload(item);
    item.say.error(refusalText(item, error, "recheck.failed"));
  } finally {
    item.recheck.busy(false);
  }
}

/** Reads the verification again and draws it; undefined when it could not be read. */
async function reload(item: Item): Promise<StaffVerification | undefined> {
  try {
    const verification = await item.context.api.verification(item.id);
    if (item.left) return verification;
    // The issuer's copy arrived (e-Devlet, asked again, answered): the copies are drawn again with it.
    if (item.viewer && verification.copies.issuer && item.current?.copies.issuer === false) {
      item.viewer.close();
      item.viewer = showViewer(item.parts.documents, item.context.api, verification, [item.recheck.element]);
    }
    showVerification(item, verification);
    return verification;
  } catch (error) {
    if (!item.left) item.say.error(problemText(error, "item.load_failed"));
    return undefined;
  }
}

/** Takes the claim, or renews the caller's, while the item is in review; then shows who holds it. True when the caller holds it. */
async function claim(item: Item): Promise<boolean> {
  const button = item.parts.claimButton;
  if (item.current?.status !== "in_review" || button.disabled) return false;
  button.disabled = true;
  let held = false;
  let refusal: unknown;
  try {
    const taken = await item.context.api.claim(item.id);
    held = true;
    item.say.info(t("claim.taken", { time: taken.expires_at }));
  } catch (error) {
    refusal = error;
  } finally {
    button.disabled = false;
    await reload(item);
  }
  // Said once the item is read again: another's claim by who holds it and until when, in the page's words.
  if (refusal !== undefined) item.say.error(refusalText(item, refusal, "claim.failed"));
  return held && item.holdsUntil !== undefined;
}

/**
 * A refusal in the reviewer's words: another reviewer's claim from the item as last read (who
 * and until when), anything else by its code's label and the API's detail.
 */
function refusalText(item: Item, error: unknown, fallback: TextKey): string {
  const other = item.current?.claim;
  if (error instanceof ApiError && error.code === "review_claimed" && other) {
    return t("claim.theirs", { holder: other.claimed_by, time: other.expires_at });
  }
  return problemText(error, fallback);
}

/** v, r and the digits: the result (and reason) chosen, the item claimed first when nobody holds it; someone else's claim is said. */
async function pick(item: Item, result: DecisionBody["result"], reason?: RejectionCode): Promise<void> {
  const verification = item.current;
  if (verification?.status !== "in_review") return;
  if (item.holdsUntil === undefined) {
    const { claim: other } = verification;
    if (other && heldByAnother(other, item.context.username())) {
      item.say.error(t("claim.theirs", { holder: other.claimed_by, time: other.expires_at }));
      return;
    }
    if (!(await claim(item))) return;
  }
  if (reason) item.form.reject(reason);
  else item.form.pick(result);
}

/** n: renews the reviewer's claim; without one, says how to take it. */
function renew(item: Item): void {
  if (item.current?.status !== "in_review") return;
  if (item.holdsUntil === undefined) item.say.info(t("claim.needed"));
  else void claim(item);
}

/** Records the decision about the state last read; a refusal because that state is stale reads it again. */
async function decide(item: Item, decision: DecisionBody): Promise<void> {
  if (!item.current) return;
  item.form.busy(true);
  try {
    const decided = await item.context.api.decide(item.id, item.current.sequence, decision);
    const recorded = t("decision.recorded", {
      id: item.id,
      result: text.label("result", decided.result ?? decision.result),
    });
    if (settings.thenQueue()) item.context.back(recorded);
    else await item.context.next(recorded, item.id);
  } catch (error) {
    if (error instanceof ApiError && STALE.has(error.code)) await reload(item);
    item.say.error(refusalText(item, error, "decision.failed"));
  } finally {
    item.form.busy(false);
  }
}

/**
 * The item's shortcuts: Esc back, c claim, n renew, v and r pick a result and 1-9 a rejection
 * reason (claiming first) while the item is in review, Enter decides; the viewer's own.
 */
function itemKey(item: Item, event: KeyboardEvent): boolean {
  if (item.viewer?.key(event)) return true;
  const reason = /^[1-9]$/.test(event.key) ? REASON_KEYS[Number(event.key) - 1] : undefined;
  if (reason) {
    void pick(item, "rejected", reason);
    return true;
  }
  switch (event.key) {
    case "Enter":
      // A focused link, button or the details' line acts by itself.
      if (document.activeElement?.closest("a, button, summary") || item.current?.status !== "in_review") return false;
      return item.form.submit();
    case "Escape":
      item.context.back();
      return true;
    case "c":
      void claim(item);
      return true;
    case "n":
      renew(item);
      return true;
    case "v":
      void pick(item, "verified");
      return true;
    case "r":
      void pick(item, "rejected");
      return true;
    default:
      return false;
  }
}

/** Opens the item `id`; `claimFirst` claims it once read, when nobody else holds it (the item after a decision). */
export function showItem(context: ConsoleContext, id: string, claimFirst = false): Screen {
  const parts = itemParts(id, context.admin());
  const item: Item = {
    context,
    id,
    parts,
    form: decisionForm(
      (decision) => void decide(item, decision),
      (message) => item.say.error(message),
      () => parts.heading.focus(),
    ),
    recheck: askAgainPanel(() => void askAgain(item)),
    watch: undefined,
    polls: 0,
    say: announcer(...parts.feedback),
    current: undefined,
    holdsUntil: undefined,
    warned: false,
    timer: undefined,
    left: false,
    viewer: undefined,
  };
  context.view.replaceChildren(parts.article);
  parts.heading.focus();

  parts.back.addEventListener("click", () => context.back());
  parts.claimButton.addEventListener("click", () => void claim(item));
  // The copies load once per visit: each view is audited.
  void reload(item).then((verification) => {
    if (!verification || item.left) return;
    item.viewer = showViewer(parts.documents, context.api, verification, [item.recheck.element]);
    if (claimFirst && !heldByAnother(verification.claim, context.username())) void claim(item);
  });

  return {
    key: (event) => itemKey(item, event),
    leave() {
      item.left = true;
      window.clearTimeout(item.timer);
      window.clearTimeout(item.watch);
      item.viewer?.close();
    },
  };
}
