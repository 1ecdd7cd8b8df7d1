/**
 * The decision table (verification-engine.md): integrity, then authenticity first (the keys, the
 * issuer's copy, the upload compared with it), then everything else from the issuer's copy: its
 * fields, the type's rule, its age and the expected subject. The issuer's copy is the evidence;
 * the upload only carries the keys and is checked for tampering. What cannot be decided
 * automatically waits in review for a person.
 */

import { type DocumentKeys, documentKeys, recordedKeys } from "../../domain/certificates/keys.ts";
import { sameSubject } from "../../domain/certificates/subject.ts";
import { checkDetail, type DetailCode, type DetailParams } from "../../domain/check-details.ts";
import { sameText, type TextDifferences, textDifferences } from "../../domain/document-content.ts";
import { issueDateOf, layoutOf, ruleOf } from "../../domain/document-layouts.ts";
import { sameBytes } from "../../domain/document-types.ts";
import { recheckUnderWay } from "../../domain/issuer.ts";
import type { FraudSignal, ReasonCode, ReviewReason } from "../../domain/reasons.ts";
import { decisionMessage } from "../../domain/reasons.ts";
import { forcedOutcome } from "../../domain/sandbox.ts";
import { type Result, reviewDeadline } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import {
  type Extracted,
  issuerCopyKey,
  personalKeysForgotten,
  type StoredCheck,
  type VerificationItem,
} from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentContent, DocumentReader } from "../../ports/document-reader.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { IssuerQueue } from "../../ports/issuer-queue.ts";
import type { Log } from "../../ports/log.ts";
import type { SubjectDigest } from "../../ports/subject-digest.ts";
import type { VerificationChange, VerificationStore } from "../../ports/verification-store.ts";
import { type IssuerGate, type LookupKeys, type Pending, scheduledAnswer } from "../issuer/answers.ts";
import { inspectDocument } from "./inspect-document.ts";
import { pinnedDocument } from "./pinned-document.ts";

export interface ProcessDeps {
  verifications: Pick<VerificationStore, "get" | "transition" | "revise">;
  documents: Pick<DocumentStore, "read" | "size" | "copy">;
  reader: DocumentReader;
  /** Where the environment's issuer is asked through; none when no issuer is configured, and a person decides. */
  issuer: IssuerQueue | undefined;
  /** The keyed digest an expected identity number is compared by. */
  subjects: SubjectDigest;
  clock: Clock;
  log: Log;
}

/** What the checks decided, with what the resource shows of it. */
type Decision = {
  checks: StoredCheck[];
  extracted?: Extracted;
  issuerCopy?: boolean;
  /** What the comparison with the issuer's copy noted: an alteration, a file saved again, an image not compared. */
  fraudSignals?: FraudSignal[];
  /** The lines the upload and the issuer's copy do not share, when their text differs. */
  differences?: TextDifferences;
  /** The barcode and identity number the checks read, once they looked for them. */
  keys?: DocumentKeys;
  /** The sandbox reference prefix that chose the outcome instead of the checks. */
  sandboxPrefix?: string;
  /** The issuer was asked and gave no answer: a reviewer may ask it again, with the keys kept for it. */
  askable?: true;
} & (
  | { to: "completed"; result: Result; reasonCode: ReasonCode }
  | { to: "failed"; failureCode: string }
  | { to: "in_review"; reason: ReviewReason }
);

type Checklist = ReturnType<typeof checklist>;

/**
 * The checks after integrity, in order; each step passes, fails or is skipped, and a step that
 * decides marks the ones after it skipped.
 */
function checklist(done: StoredCheck[], names: string[]) {
  const checks = [...done];
  const record = (name: string, outcome: StoredCheck["outcome"], code: DetailCode, params?: DetailParams) => {
    checks.push({ name, outcome, ...checkDetail(code, params) });
    names.splice(names.indexOf(name), 1);
  };
  return {
    checks,
    pass: (name: string, code: DetailCode, params?: DetailParams) => record(name, "passed", code, params),
    fail: (name: string, code: DetailCode, params?: DetailParams) => record(name, "failed", code, params),
    skip: (name: string, code: DetailCode, params?: DetailParams) => record(name, "skipped", code, params),
    /** Marks every step not yet run as skipped. */
    rest: (code: DetailCode = "not_run_decided", params?: DetailParams) => {
      for (const name of [...names]) record(name, "skipped", code, params);
      return checks;
    },
  };
}

/** The outcome a sandbox reference prefix forces, whatever the document holds. */
function forcedDecision(item: VerificationItem, steps: Checklist): Decision | undefined {
  const forced = forcedOutcome(item.environment, item.external_reference_id);
  if (!forced) return undefined;
  const checks = steps.rest("not_run_sandbox_prefix", { prefix: forced.prefix });
  const { outcome, prefix } = forced;
  if (outcome.kind === "failed")
    return { to: "failed", checks, failureCode: outcome.reasonCode, sandboxPrefix: prefix };
  if (outcome.kind === "review") return { to: "in_review", checks, reason: "review_requested", sandboxPrefix: prefix };
  return { to: "completed", checks, result: outcome.result, reasonCode: outcome.reasonCode, sandboxPrefix: prefix };
}

/**
 * What the customer sent, as the checks see it: a PDF with a text layer, compared with the
 * issuer's copy; an image (a photo, or a scan: a PDF without text), which carries the keys but
 * cannot be compared; or the keys alone (`document_keys` on create), with nothing to compare.
 */
type Sent = { kind: "pdf"; bytes: Uint8Array; content: DocumentContent } | { kind: "image" } | { kind: "keys" };

/** The issuer's copy, read: the evidence every field, rule and subject is taken from. */
interface IssuerCopy {
  content: DocumentContent;
  /** What the comparison with the upload noted, as information beside the decision. */
  fraudSignals: FraudSignal[];
}

/**
 * The upload against the issuer's copy. Byte for byte, or the same text on every page (saved
 * again by another writer: `not_original_file`) passes; other text is an alteration, whose lines
 * are kept for the reviewer. An image cannot be compared (`upload_not_compared`).
 */
function compared(sent: Sent, issuerBytes: Uint8Array, copy: DocumentContent, steps: Checklist): Decision | IssuerCopy {
  if (sent.kind === "keys") {
    steps.pass("authority_match", "issuer_holds_keys");
    return { content: copy, fraudSignals: [] };
  }
  if (sent.kind === "image") {
    steps.pass("authority_match", "issuer_holds_image");
    return { content: copy, fraudSignals: ["upload_not_compared"] };
  }
  if (sameBytes(sent.bytes, issuerBytes)) {
    steps.pass("authority_match", "issuer_copy_same_bytes");
    return { content: copy, fraudSignals: [] };
  }
  if (sameText(sent.content, copy)) {
    steps.pass("authority_match", "issuer_copy_same_text");
    return { content: copy, fraudSignals: ["not_original_file"] };
  }
  steps.fail("authority_match", "issuer_copy_differs");
  return {
    to: "completed",
    checks: steps.rest(),
    result: "rejected",
    reasonCode: "document_altered",
    fraudSignals: ["document_altered"],
    issuerCopy: true,
    differences: textDifferences(sent.content, copy),
  };
}

/**
 * Authenticity: the issuer's copy for the document's keys, read, and compared with what was
 * sent. Decides when the issuer has no such document, cannot be asked, or holds other text;
 * `Pending` while the answer is awaited.
 */
async function authenticity(
  item: VerificationItem,
  sent: Sent,
  keys: LookupKeys,
  steps: Checklist,
  deps: { reader: DocumentReader; issuer: IssuerGate | undefined },
): Promise<Decision | Pending | IssuerCopy> {
  const unavailable = (code: DetailCode, params?: DetailParams): Decision => {
    steps.skip("authority_match", code, params);
    // An image only the issuer's answer could have decided (a subject to match) waits for it; any other, for its PDF.
    const decidable = sent.kind !== "image" || item.expected_subject !== undefined;
    return {
      to: "in_review",
      checks: steps.rest(),
      ...(decidable
        ? { reason: "issuer_unavailable", ...(deps.issuer ? { askable: true } : {}) }
        : { reason: "original_pdf_not_provided" }),
    };
  };
  if (!deps.issuer) return unavailable("issuer_not_configured");
  const answer = await deps.issuer.answerFor(item, keys);
  if (answer.kind === "pending") return answer;
  if (answer.kind === "unavailable") {
    return unavailable("issuer_no_answer", { cause: answer.cause });
  }
  if (answer.kind === "not_found") {
    steps.fail("authority_match", "issuer_not_found");
    return {
      to: "completed",
      checks: steps.rest(),
      result: "rejected",
      reasonCode: "document_not_found_at_issuer",
    };
  }
  // The copy is kept beside the upload whatever follows: the evidence, and what a reviewer compares.
  const read = await deps.reader.read("pdf", answer.document);
  if (!read.readable) {
    steps.skip("authority_match", "issuer_copy_unreadable", { reason: read.reason.code, ...read.reason.params });
    return { to: "in_review", checks: steps.rest(), reason: "issuer_unavailable", issuerCopy: true, askable: true };
  }
  return compared(sent, answer.document, read.content, steps);
}

/** Whole days from `issued` (`YYYY-MM-DD`) to the date at `now` in Türkiye (UTC+3, no daylight saving). */
function ageInDays(issued: string, now: Date): number {
  const today = new Date(now.getTime() + TURKIYE_OFFSET_MS).toISOString().slice(0, 10);
  return Math.floor((Date.parse(today) - Date.parse(issued)) / DAY_MS);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const TURKIYE_OFFSET_MS = 3 * 60 * 60 * 1000;

/**
 * What follows a confirmed document, all of it read from the issuer's copy: its fields, the
 * type's rule, its age, the expected subject. An image is decided only when the customer said
 * whom to expect; otherwise a person compares it.
 */
function confirmedDecision(
  item: VerificationItem,
  sent: Sent,
  copy: IssuerCopy,
  barcode: string,
  steps: Checklist,
  facts: { now: Date; keyedNumber: string | undefined },
): Decision {
  const layout = layoutOf(item.document_type);
  const { fields, incomplete } = layout.read(copy.content.lines, barcode);
  const extracted = { schema: layout.schema, source: "issuer_copy", fields } as Extracted;
  const fraudSignals = copy.fraudSignals.length > 0 ? { fraudSignals: copy.fraudSignals } : {};
  const review = (reason: ReviewReason): Decision => ({
    to: "in_review",
    checks: steps.rest(),
    reason,
    extracted,
    issuerCopy: true,
    ...fraudSignals,
  });
  if (sent.kind === "image" && !item.expected_subject) return review("original_pdf_not_provided");
  if (incomplete.length > 0) {
    steps.fail("fields_extracted", "fields_missing", { fields: incomplete });
    return review("fields_incomplete");
  }
  steps.pass("fields_extracted", "fields_read");

  // From here the issuer confirmed the document: every decision shows the fields and keeps the copy.
  const decided = (result: Result, reasonCode: ReasonCode): Decision => ({
    to: "completed",
    checks: steps.rest(),
    result,
    reasonCode,
    extracted,
    issuerCopy: true,
    ...fraudSignals,
  });
  const rule = ruleOf(item.document_type);
  if (rule) {
    if (!rule.passes(fields)) {
      steps.fail(rule.check, "rule_not_met", { rule: rule.check });
      return decided("rejected", rule.reasonCode as ReasonCode);
    }
    steps.pass(rule.check, "rule_met", { rule: rule.check });
  }

  if (item.max_document_age_days !== undefined) {
    const issued = issueDateOf(item.document_type, copy.content.lines);
    if (issued === null) {
      steps.fail("document_fresh", "issue_date_missing");
      return review("fields_incomplete");
    }
    const age = ageInDays(issued, facts.now);
    if (age > item.max_document_age_days) {
      steps.fail("document_fresh", "issued_too_long_ago", { days: age, max_days: item.max_document_age_days });
      return decided("rejected", "document_too_old");
    }
    steps.pass("document_fresh", "issued_within", { days: Math.max(age, 0), max_days: item.max_document_age_days });
  }

  if (item.expected_subject) {
    if (!sameSubject(item.expected_subject, layout.subject(fields), facts.keyedNumber)) {
      steps.fail("subject_match", "subject_differs");
      return decided("rejected", "subject_mismatch");
    }
    steps.pass("subject_match", "subject_matches");
  }
  return decided("verified", "verified");
}

/** What deciding needs beside the verification: the reader, the issuer, the time, the expected number's digest. */
interface DecideDeps {
  reader: DocumentReader;
  issuer: IssuerGate | undefined;
  now: Date;
  /** The digest of an identity number, when the customer expects one to compare it with. */
  keyedNumber(identityNumber: string | undefined): Promise<string | undefined>;
}

/**
 * The keys to ask the issuer with, as the upload carries them; or the decision without them (no
 * barcode; a barcode without its identity number).
 */
function keysToAsk(sent: Sent, keys: DocumentKeys, steps: Checklist): Decision | Required<DocumentKeys> {
  const image = sent.kind === "image";
  if (!keys.barcode) {
    steps.fail("barcode_found", image ? "barcode_not_in_image" : "barcode_not_in_pdf");
    const checks = steps.rest();
    return image
      ? { to: "in_review", checks, reason: "original_pdf_not_provided" }
      : { to: "completed", checks, result: "rejected", reasonCode: "barcode_missing" };
  }
  if (!keys.identityNumber) {
    // A bare-barcode QR code is a real form: the issuer cannot be asked without the number, a person can look.
    steps.fail("barcode_found", "barcode_without_number", { barcode: keys.barcode });
    return { to: "in_review", checks: steps.rest(), reason: image ? "original_pdf_not_provided" : "fields_incomplete" };
  }
  steps.pass("barcode_found", "barcode_and_number_read", { barcode: keys.barcode });
  return { barcode: keys.barcode, identityNumber: keys.identityNumber };
}

/**
 * From the keys on: none to ask with, the issuer's copy, then what the issuer's copy says;
 * `Pending` while the issuer's answer is awaited. For the keys alone, the identity number stays
 * sealed on the verification until the issuer's asker opens it.
 */
async function decideByKeys(
  item: VerificationItem,
  sent: Sent,
  keys: DocumentKeys,
  steps: Checklist,
  deps: DecideDeps,
): Promise<Decision | Pending> {
  let lookup: LookupKeys;
  if (sent.kind === "keys" && keys.barcode) {
    steps.pass("barcode_found", "barcode_and_number_sent", { barcode: keys.barcode });
    lookup = { barcode: keys.barcode };
  } else {
    const read = keysToAsk(sent, keys, steps);
    if ("checks" in read) return read;
    lookup = read;
  }
  const copy = await authenticity(item, sent, lookup, steps, deps);
  if (!("content" in copy)) return copy;
  // The issuer answered for the number sent, so for the keys alone its copy prints that number.
  const identityNumber = keys.identityNumber ?? documentKeys(copy.content).identityNumber;
  const decision = confirmedDecision(item, sent, copy, lookup.barcode, steps, {
    now: deps.now,
    keyedNumber: await deps.keyedNumber(identityNumber),
  });
  return { ...decision, keys: { barcode: lookup.barcode, identityNumber } };
}

/** The digest of the identity number the document's keys carry, when the customer expects one. */
async function keyedNumberOf(deps: ProcessDeps, item: VerificationItem, identityNumber: string | undefined) {
  if (item.expected_subject?.identity_number_digest === undefined || identityNumber === undefined) return undefined;
  return deps.subjects.digest(identityNumber);
}

/** The checks after the upload's own, in order, as far as this verification asks for them. */
function stepsAfterUpload(item: VerificationItem): string[] {
  const rule = ruleOf(item.document_type);
  return [
    "barcode_found",
    "authority_match",
    "fields_extracted",
    ...(rule ? [rule.check] : []),
    ...(item.max_document_age_days !== undefined ? ["document_fresh"] : []),
    ...(item.expected_subject ? ["subject_match"] : []),
  ];
}

/** The decision table, in order; `Pending` while the issuer's answer is awaited. */
async function decide(
  item: VerificationItem,
  upload: Uint8Array | undefined,
  deps: ProcessDeps,
  issuer: IssuerGate | undefined,
): Promise<Decision | Pending> {
  const decideDeps: DecideDeps = {
    reader: deps.reader,
    issuer,
    now: deps.clock.now(),
    keyedNumber: (identityNumber) => keyedNumberOf(deps, item, identityNumber),
  };
  // A verification by its keys: no upload and no inspection; the issuer's copy is all the evidence.
  if (item.submitted_keys) {
    const steps = checklist([], stepsAfterUpload(item));
    const keys = { barcode: item.submitted_keys.barcode };
    const decision =
      forcedDecision(item, steps) ?? (await decideByKeys(item, { kind: "keys" }, keys, steps, decideDeps));
    return "kind" in decision || decision.keys || decision.sandboxPrefix ? decision : { ...decision, keys };
  }
  const inspection = await inspectDocument(deps.reader, item, upload);
  if (inspection.failureCode !== undefined || !upload) {
    return { to: "failed", checks: inspection.checks, failureCode: inspection.failureCode ?? "document_missing" };
  }
  const steps = checklist(inspection.checks, stepsAfterUpload(item));
  const forced = forcedDecision(item, steps);
  if (forced) return forced;

  const { content } = inspection;
  // A PDF without a text layer is a scan: it carries the keys in its QR code, as a photo does.
  const sent: Sent =
    inspection.fileType === "pdf" && content.lines.length > 0
      ? { kind: "pdf", bytes: upload, content }
      : { kind: "image" };
  const keys = documentKeys(content);
  const decision = await decideByKeys(item, sent, keys, steps, decideDeps);
  // The decision that read the keys records them, for the reviewer.
  return "kind" in decision || decision.keys ? decision : { ...decision, keys };
}

/**
 * What a decision removes: the personal keys it no longer needs (`personalKeysForgotten`). A
 * review because the issuer gave no answer keeps them: a reviewer may ask the issuer again, and
 * the review's end removes them.
 */
function forgotten(item: VerificationItem, decision: Decision) {
  return decision.askable ? { set: {}, remove: [] } : personalKeysForgotten(item);
}

/** The fields a decision writes with its change of state. */
function written(item: VerificationItem, decision: Decision, now: Date): VerificationChange {
  const at = isoSeconds(now);
  const forced = decision.sandboxPrefix ? { sandbox_prefix: decision.sandboxPrefix } : {};
  const shared = {
    checks: decision.checks,
    ...(decision.extracted ? { extracted: decision.extracted } : {}),
    ...(decision.issuerCopy ? { issuer_copy_key: issuerCopyKey(item.verification_id) } : {}),
    // Never the identity number in clear: only its masked form is stored.
    ...(decision.keys ? { document_keys: recordedKeys(decision.keys) } : {}),
    ...(decision.fraudSignals ? { fraud_signals: decision.fraudSignals } : {}),
    ...(decision.differences ? { text_differences: decision.differences } : {}),
    ...forgotten(item, decision).set,
    ...forced,
  };
  switch (decision.to) {
    case "completed":
      return {
        ...shared,
        result: decision.result,
        reasons:
          decision.result === "verified"
            ? []
            : [{ code: decision.reasonCode, message: decisionMessage(decision.reasonCode, forced) }],
        completed_at: at,
      };
    case "failed":
      return { ...shared, failure_code: decision.failureCode, completed_at: at };
    case "in_review": {
      const deadline = reviewDeadline(item.environment, now);
      return {
        ...shared,
        review_reason: decision.reason,
        review_required_at: at,
        review_deadline: deadline,
      };
    }
  }
}

/**
 * Takes a verification in `processing` to its decision (or to review), or leaves it processing
 * while the issuer's answer is awaited. Safe to run twice: it does nothing unless the
 * verification is still processing (or, for the asker, in review with a reviewer's asking again
 * under way), and writes only if nobody else has.
 */
export async function processVerification(
  deps: ProcessDeps,
  id: string,
  /** The issuer queue's reader asks itself; every other processor only sends the lookup to it. */
  asker?: IssuerGate,
): Promise<VerificationItem | undefined> {
  const item = await deps.verifications.get(id);
  if (item?.status === "in_review" && asker && recheckUnderWay(item.issuer)) return recheck(deps, item, asker);
  if (item?.status !== "processing") return item;
  const issuer = deps.issuer && (asker ?? scheduledAnswer({ ...deps, queue: deps.issuer }));
  const decision = await decide(item, await pinnedDocument(deps.documents, item), deps, issuer);
  // The issuer is still to answer: its asker takes the verification on from here.
  if ("kind" in decision) return decision.item;
  const now = deps.clock.now();
  const outcome = await deps.verifications.transition({
    id,
    from: "processing",
    to: decision.to,
    now: isoSeconds(now),
    set: written(item, decision, now),
    remove: forgotten(item, decision).remove,
    expect: { sequence: item.sequence },
  });
  if (outcome.applied && decision.to === "in_review" && decision.reason === "issuer_unavailable") {
    deps.log.count("IssuerUnavailableReviews", item.environment, "a verification went to review: no issuer answer", {
      verification_id: id,
    });
  }
  return outcome.item;
}

/**
 * A reviewer asked the issuer again for a verification in review: the same checks run on the
 * new answer. One the checks can decide completes the verification (its webhook is sent as for
 * any completion); one they cannot leaves it in review with its checks and reason revised, its
 * review window unchanged.
 */
async function recheck(deps: ProcessDeps, item: VerificationItem, asker: IssuerGate) {
  const decision = await decide(item, await pinnedDocument(deps.documents, item), deps, asker);
  if ("kind" in decision) return decision.item;
  const now = deps.clock.now();
  const { review_required_at: _since, review_deadline: _deadline, ...set } = written(item, decision, now);
  const change = { id: item.verification_id, now: isoSeconds(now), set, remove: forgotten(item, decision).remove };
  const outcome =
    decision.to === "in_review"
      ? await deps.verifications.revise({ ...change, sequence: item.sequence })
      : await deps.verifications.transition({
          ...change,
          from: "in_review",
          to: decision.to,
          expect: { sequence: item.sequence },
        });
  return outcome.item;
}
