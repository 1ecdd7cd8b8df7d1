/**
 * One verification in review: the two copies side by side, what the checks found, the claim,
 * and the decision. The copies load once per visit (each view is audited); everything else
 * reloads after an action, so a refusal always shows the current state.
 */
import { ApiError } from "../common/api-client.ts";
import { h, timeOf, words } from "../common/dom.ts";
import { decisionForm } from "./decision.ts";
import type { ConsoleContext, Screen } from "./screen.ts";
import type { DecisionBody, DocumentCopy, StaffVerification } from "./wire.ts";

const COPIES: { copy: DocumentCopy; title: string; missing: string }[] = [
  { copy: "upload", title: "Upload", missing: "No upload is kept for this verification." },
  {
    copy: "issuer",
    title: "Issuer's copy",
    missing: "There is no issuer's copy: the issuer was not reached, or has no document with this barcode.",
  },
];

/** Refusals that mean the page shows an older state than the API's: someone else's claim, a lapsed one, a change since. */
const STALE = new Set(["review_claimed", "review_not_claimed", "verification_not_in_review", "sequence_mismatch"]);

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

export function showItem(context: ConsoleContext, id: string): Screen {
  const heading = h("h1", { id: "item-title", tabindex: "-1" }, id);
  const back = h("button", { type: "button" }, "Back to queue ", h("kbd", { "aria-hidden": "true" }, "Esc"));
  const summary = h("div", { class: "summary" });
  const claimStatus = h("p", { id: "claim-status" });
  const claimButton = h("button", { type: "button", "aria-describedby": "claim-status" }, "Claim");
  const claimBar = h("section", { class: "claim", "aria-label": "Claim" }, claimStatus, claimButton);
  const documents = h("section", { class: "documents", "aria-label": "Documents" });
  const details = h("div", { class: "details" });
  const outcome = h("div", {});
  const form = decisionForm((decision) => void decide(decision));
  context.view.replaceChildren(
    h(
      "article",
      { class: "panel item", "aria-labelledby": "item-title", "aria-busy": "true" },
      h("div", { class: "toolbar" }, back, heading),
      summary,
      claimBar,
      documents,
      details,
      outcome,
    ),
  );
  heading.focus();

  let current: StaffVerification | undefined;
  let left = false;

  const update = (verification: StaffVerification) => {
    current = verification;
    const inReview = verification.status === "in_review";
    summary.replaceChildren(
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
    );
    const mine = verification.claim?.claimed_by === context.username();
    const { claim } = verification;
    claimStatus.replaceChildren(
      claim
        ? h(
            "span",
            {},
            mine ? "You hold" : `${claim.claimed_by} holds`,
            " the claim until ",
            timeOf(claim.expires_at),
            ".",
          )
        : inReview
          ? "Nobody holds the claim: claim it to decide."
          : "Not in review: nothing to claim.",
    );
    claimButton.replaceChildren(mine ? "Renew claim " : "Claim ", h("kbd", { "aria-hidden": "true" }, "c"));
    claimButton.hidden = !inReview;
    details.replaceChildren(
      h(
        "section",
        { "aria-labelledby": "fields-title" },
        h("h2", { id: "fields-title" }, "Extracted fields"),
        fieldsList(verification),
      ),
      h(
        "section",
        { "aria-labelledby": "checks-title" },
        h("h2", { id: "checks-title" }, "Checks"),
        checksTable(verification),
      ),
      h(
        "section",
        { "aria-labelledby": "reasons-title" },
        h("h2", { id: "reasons-title" }, "Reasons"),
        reasonsList(verification),
      ),
    );
    if (inReview) {
      outcome.replaceChildren(form.element);
    } else {
      const decision = verification.decision;
      outcome.replaceChildren(
        h(
          "section",
          { class: "decided", "aria-labelledby": "decided-title" },
          h("h2", { id: "decided-title" }, "Outcome"),
          h("p", {}, `${words(verification.status)}: ${words(verification.result ?? verification.reason_code)}.`),
          decision ? h("p", {}, `Decided by ${decision.decided_by}.`) : null,
          decision?.note ? h("blockquote", {}, decision.note) : null,
        ),
      );
    }
    context.view.querySelector("article")?.setAttribute("aria-busy", "false");
  };

  const reload = async () => {
    try {
      const verification = await context.api.verification(id);
      if (!left) update(verification);
      return verification;
    } catch (error) {
      if (!left) context.say.error(messageOf(error, "The verification could not be loaded."));
      return undefined;
    }
  };

  /** Each copy that exists in a frame of its own, from a link valid a minute; one that does not, said in words. */
  const showDocuments = (verification: StaffVerification) => {
    documents.replaceChildren(
      ...COPIES.map(({ copy, title, missing }) => {
        const figure = h("figure", { class: "copy" }, h("figcaption", {}, h("h2", {}, title)));
        if (!verification.copies[copy]) {
          figure.append(h("p", { class: "missing" }, missing));
          return figure;
        }
        const frame = h("iframe", { title: `${title} of ${id}`, referrerpolicy: "no-referrer", "data-copy": copy });
        figure.append(frame);
        context.api.document(id, copy).then(
          (link) => {
            frame.src = link.url;
          },
          (error: unknown) =>
            frame.replaceWith(h("p", { class: "missing" }, messageOf(error, `The ${title} could not be opened.`))),
        );
        return figure;
      }),
    );
  };

  const claim = async () => {
    if (current?.status !== "in_review" || claimButton.disabled) return;
    claimButton.disabled = true;
    try {
      const held = await context.api.claim(id);
      context.say.info(`You hold the claim until ${new Date(held.expires_at).toLocaleTimeString()}.`);
    } catch (error) {
      context.say.error(messageOf(error, "The claim failed."));
    } finally {
      claimButton.disabled = false;
      await reload();
    }
  };

  const decide = async (decision: DecisionBody) => {
    if (!current) return;
    form.busy(true);
    try {
      const decided = await context.api.decide(id, current.sequence, decision);
      context.back(`Decision recorded for ${id}: ${words(decided.result ?? decision.result)}.`);
    } catch (error) {
      context.say.error(messageOf(error, "The decision could not be recorded."));
      if (error instanceof ApiError && STALE.has(error.code)) await reload();
    } finally {
      form.busy(false);
    }
  };

  back.addEventListener("click", () => context.back());
  claimButton.addEventListener("click", () => void claim());
  void reload().then((verification) => {
    if (verification && !left) showDocuments(verification);
  });

  return {
    key(event) {
      switch (event.key) {
        case "Escape":
          context.back();
          return true;
        case "c":
          void claim();
          return true;
        case "v":
          if (current?.status === "in_review") form.pick("verified");
          return true;
        case "r":
          if (current?.status === "in_review") form.pick("rejected");
          return true;
        default:
          return false;
      }
    },
    leave() {
      left = true;
    },
  };
}
