/**
 * One verification in review: the two copies side by side, what the checks found, the claim,
 * and the decision. The copies load once per visit (each view is audited); everything else
 * reloads after an action, so a refusal always shows the current state.
 */
import { h, timeOf, words } from "../common/dom.ts";
import { ApiError } from "../common/problem.ts";
import { type DecisionForm, decisionForm } from "./decision.ts";
import type { ConsoleContext, Screen } from "./screen.ts";
import type { DecisionBody, DocumentCopy, ProblemCode, StaffVerification } from "./wire.ts";

/** A copy of the document as the screen names it, and what it says when there is none. */
interface CopyFrame {
  copy: DocumentCopy;
  title: string;
  missing: string;
}

const COPIES: CopyFrame[] = [
  { copy: "upload", title: "Upload", missing: "No upload is kept for this verification." },
  {
    copy: "issuer",
    title: "Issuer's copy",
    missing: "There is no issuer's copy: the issuer was not reached, or has no document with this barcode.",
  },
];

/** Refusals that mean the page shows an older state than the API's: someone else's claim, a lapsed one, a change since. */
const STALE: ReadonlySet<string> = new Set<ProblemCode>([
  "review_claimed",
  "review_not_claimed",
  "verification_not_in_review",
  "sequence_mismatch",
]);

function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

function fieldValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The checks in order, each with its outcome in words (not colour alone). */
function checksTable(verification: StaffVerification): HTMLElement {
  if (verification.checks.length === 0) return h("p", { class: "muted" }, "No checks ran.");
  return h(
    "table",
    { class: "checks" },
    h("thead", {}, h("tr", {}, ...["Check", "Outcome", "Detail"].map((name) => h("th", { scope: "col" }, name)))),
    h(
      "tbody",
      {},
      ...verification.checks.map((check) =>
        h(
          "tr",
          {},
          h("td", {}, words(check.name)),
          h("td", {}, h("span", { class: `outcome ${check.outcome}` }, words(check.outcome))),
          h("td", {}, check.detail),
        ),
      ),
    ),
  );
}

function fieldsList(verification: StaffVerification): HTMLElement {
  const fields = Object.entries(verification.extracted?.fields ?? {});
  if (fields.length === 0) {
    return h("p", { class: "muted" }, "No fields: they are read only from an issuer's copy that matches the upload.");
  }
  return h(
    "dl",
    { class: "fields" },
    ...fields.flatMap(([name, value]) => [h("dt", {}, words(name)), h("dd", {}, fieldValue(value))]),
  );
}

function reasonsList(verification: StaffVerification): HTMLElement {
  const items = [
    ...verification.reasons.map((reason) => h("li", {}, h("strong", {}, words(reason.code)), `: ${reason.message}`)),
    ...verification.fraud_signals.map((signal) => h("li", { class: "warning" }, `Fraud signal: ${words(signal)}`)),
  ];
  return items.length > 0 ? h("ul", { class: "reasons" }, ...items) : h("p", { class: "muted" }, "None recorded.");
}

/** The elements of the screen that the steps below fill in. */
interface ItemParts {
  article: HTMLElement;
  heading: HTMLElement;
  back: HTMLButtonElement;
  summary: HTMLElement;
  claimStatus: HTMLElement;
  claimButton: HTMLButtonElement;
  documents: HTMLElement;
  details: HTMLElement;
  outcome: HTMLElement;
}

/** One open item: what it shows, the verification as last read, and whether another screen took its place. */
interface Item {
  context: ConsoleContext;
  id: string;
  parts: ItemParts;
  form: DecisionForm;
  current: StaffVerification | undefined;
  left: boolean;
}

/** The screen's frame, empty until the verification is read. */
function itemParts(id: string): ItemParts {
  const parts = {
    heading: h("h1", { id: "item-title", tabindex: "-1" }, id),
    back: h("button", { type: "button" }, "Back to queue ", h("kbd", { "aria-hidden": "true" }, "Esc")),
    summary: h("div", { class: "summary" }),
    claimStatus: h("p", { id: "claim-status" }),
    claimButton: h("button", { type: "button", "aria-describedby": "claim-status" }, "Claim"),
    documents: h("section", { class: "documents", "aria-label": "Documents" }),
    details: h("div", { class: "details" }),
    outcome: h("div", {}),
  };
  const article = h(
    "article",
    { class: "panel item", "aria-labelledby": "item-title", "aria-busy": "true" },
    h("div", { class: "toolbar" }, parts.back, parts.heading),
    parts.summary,
    h("section", { class: "claim", "aria-label": "Claim" }, parts.claimStatus, parts.claimButton),
    parts.documents,
    parts.details,
    parts.outcome,
  );
  return { article, ...parts };
}

/** The verification's message, then its facts. */
function summaryOf(verification: StaffVerification): HTMLElement[] {
  return [
    h("p", { class: "lead" }, verification.message),
    h(
      "dl",
      { class: "facts" },
      ...[
        ["Status", words(verification.status)],
        ["Reason", verification.reason_code],
        ["Type", verification.document_type],
        ["App", verification.app_id],
        [
          "File",
          `${verification.original_filename ?? "(erased)"} (${verification.file_size_bytes.toLocaleString()} bytes)`,
        ],
        ["Reference", verification.external_reference_id ?? "—"],
      ].flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
      h("dt", {}, "In review since"),
      h("dd", {}, verification.review ? timeOf(verification.review.required_at) : "—"),
    ),
  ];
}

/** Who holds the claim and until when, and the button that takes or renews it while the item is in review. */
function showClaim(parts: ItemParts, verification: StaffVerification, username: string): void {
  const { claim } = verification;
  const mine = claim?.claimed_by === username;
  parts.claimStatus.replaceChildren(
    claim
      ? h(
          "span",
          {},
          mine ? "You hold" : `${claim.claimed_by} holds`,
          " the claim until ",
          timeOf(claim.expires_at),
          ".",
        )
      : verification.status === "in_review"
        ? "Nobody holds the claim: claim it to decide."
        : "Not in review: nothing to claim.",
  );
  parts.claimButton.replaceChildren(mine ? "Renew claim " : "Claim ", h("kbd", { "aria-hidden": "true" }, "c"));
  parts.claimButton.hidden = verification.status !== "in_review";
}

/** A titled section of the details. */
function detailSection(id: string, title: string, content: HTMLElement): HTMLElement {
  return h("section", { "aria-labelledby": id }, h("h2", { id }, title), content);
}

/** How a verification that left review ended, and who decided it when a person did. */
function decidedSection(verification: StaffVerification): HTMLElement {
  const { decision } = verification;
  return h(
    "section",
    { class: "decided", "aria-labelledby": "decided-title" },
    h("h2", { id: "decided-title" }, "Outcome"),
    h("p", {}, `${words(verification.status)}: ${words(verification.result ?? verification.reason_code)}.`),
    decision ? h("p", {}, `Decided by ${decision.decided_by}.`) : null,
    decision?.note ? h("blockquote", {}, decision.note) : null,
  );
}

/** Draws the verification as just read: the summary, the claim, the details, and the form or the outcome. */
function showVerification(item: Item, verification: StaffVerification): void {
  const { parts } = item;
  item.current = verification;
  parts.summary.replaceChildren(...summaryOf(verification));
  showClaim(parts, verification, item.context.username());
  parts.details.replaceChildren(
    detailSection("fields-title", "Extracted fields", fieldsList(verification)),
    detailSection("checks-title", "Checks", checksTable(verification)),
    detailSection("reasons-title", "Reasons", reasonsList(verification)),
  );
  parts.outcome.replaceChildren(verification.status === "in_review" ? item.form.element : decidedSection(verification));
  parts.article.setAttribute("aria-busy", "false");
}

/** One copy in a frame of its own, from a link valid a minute; one that does not exist, said in words. */
function copyFigure(item: Item, verification: StaffVerification, { copy, title, missing }: CopyFrame): HTMLElement {
  const figure = h("figure", { class: "copy" }, h("figcaption", {}, h("h2", {}, title)));
  if (!verification.copies[copy]) {
    figure.append(h("p", { class: "missing" }, missing));
    return figure;
  }
  const frame = h("iframe", { title: `${title} of ${item.id}`, referrerpolicy: "no-referrer", "data-copy": copy });
  figure.append(frame);
  item.context.api.document(item.id, copy).then(
    (link) => {
      frame.src = link.url;
    },
    (error: unknown) =>
      frame.replaceWith(h("p", { class: "missing" }, messageOf(error, `The ${title} could not be opened.`))),
  );
  return figure;
}

/** Reads the verification again and draws it; undefined when it could not be read. */
async function reload(item: Item): Promise<StaffVerification | undefined> {
  try {
    const verification = await item.context.api.verification(item.id);
    if (!item.left) showVerification(item, verification);
    return verification;
  } catch (error) {
    if (!item.left) item.context.say.error(messageOf(error, "The verification could not be loaded."));
    return undefined;
  }
}

/** Takes the claim, or renews the caller's, while the item is in review; then shows who holds it. */
async function claim(item: Item): Promise<void> {
  const button = item.parts.claimButton;
  if (item.current?.status !== "in_review" || button.disabled) return;
  button.disabled = true;
  try {
    const held = await item.context.api.claim(item.id);
    item.context.say.info(`You hold the claim until ${new Date(held.expires_at).toLocaleTimeString()}.`);
  } catch (error) {
    item.context.say.error(messageOf(error, "The claim failed."));
  } finally {
    button.disabled = false;
    await reload(item);
  }
}

/** Records the decision about the state last read; a refusal because that state is stale reads it again. */
async function decide(item: Item, decision: DecisionBody): Promise<void> {
  if (!item.current) return;
  item.form.busy(true);
  try {
    const decided = await item.context.api.decide(item.id, item.current.sequence, decision);
    item.context.back(`Decision recorded for ${item.id}: ${words(decided.result ?? decision.result)}.`);
  } catch (error) {
    item.context.say.error(messageOf(error, "The decision could not be recorded."));
    if (error instanceof ApiError && STALE.has(error.code)) await reload(item);
  } finally {
    item.form.busy(false);
  }
}

/** The item's shortcuts: Esc back, c claim, v and r pick a result while the item is in review. */
function itemKey(item: Item, event: KeyboardEvent): boolean {
  const inReview = item.current?.status === "in_review";
  switch (event.key) {
    case "Escape":
      item.context.back();
      return true;
    case "c":
      void claim(item);
      return true;
    case "v":
      if (inReview) item.form.pick("verified");
      return true;
    case "r":
      if (inReview) item.form.pick("rejected");
      return true;
    default:
      return false;
  }
}

export function showItem(context: ConsoleContext, id: string): Screen {
  const parts = itemParts(id);
  const item: Item = {
    context,
    id,
    parts,
    form: decisionForm((decision) => void decide(item, decision)),
    current: undefined,
    left: false,
  };
  context.view.replaceChildren(parts.article);
  parts.heading.focus();

  parts.back.addEventListener("click", () => context.back());
  parts.claimButton.addEventListener("click", () => void claim(item));
  // The copies load once per visit: each view is audited.
  void reload(item).then((verification) => {
    if (verification && !item.left) {
      parts.documents.replaceChildren(...COPIES.map((copy) => copyFigure(item, verification, copy)));
    }
  });

  return {
    key: (event) => itemKey(item, event),
    leave() {
      item.left = true;
    },
  };
}
