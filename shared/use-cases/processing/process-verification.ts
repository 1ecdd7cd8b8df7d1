/**
 * The decision table (verification-engine.md): integrity, then authenticity first (the barcode,
 * the issuer's copy byte for byte), then the fields from the issuer's copy, the type's rule and
 * the expected subject. What cannot be decided automatically waits in review for a person.
 */

import { type DocumentKeys, documentKeys, recordedKeys } from "../../domain/certificates/keys.ts";
import { sameSubject } from "../../domain/certificates/subject.ts";
import { layoutOf } from "../../domain/document-layouts.ts";
import { sameBytes } from "../../domain/document-types.ts";
import type { ReasonCode, ReviewReason } from "../../domain/reasons.ts";
import { decisionMessage } from "../../domain/reasons.ts";
import type { Check } from "../../domain/responses/verification.ts";
import { forcedOutcome } from "../../domain/sandbox.ts";
import { type Result, reviewDeadline } from "../../domain/state.ts";
import { isoSeconds } from "../../domain/time.ts";
import { type Extracted, issuerCopyKey, type VerificationItem } from "../../domain/verification.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentContent, DocumentReader } from "../../ports/document-reader.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { IssuerQueue } from "../../ports/issuer-queue.ts";
import type { Log } from "../../ports/log.ts";
import type { SubjectDigest } from "../../ports/subject-digest.ts";
import type { VerificationChange, VerificationStore } from "../../ports/verification-store.ts";
import { type IssuerGate, type Pending, scheduledAnswer } from "../issuer/answers.ts";
import { inspectDocument } from "./inspect-document.ts";
import { pinnedDocument } from "./pinned-document.ts";

export interface ProcessDeps {
  verifications: Pick<VerificationStore, "get" | "transition">;
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
  checks: Check[];
  extracted?: Extracted;
  issuerCopy?: boolean;
  /** The barcode and identity number the checks read, once they looked for them. */
  keys?: DocumentKeys;
  /** The sandbox reference prefix that chose the outcome instead of the checks. */
  sandboxPrefix?: string;
} & (
  | { to: "completed"; result: Result; reasonCode: ReasonCode; fraudSignals?: string[] }
  | { to: "failed"; failureCode: string }
  | { to: "in_review"; reason: ReviewReason }
);

type Checklist = ReturnType<typeof checklist>;

/**
 * The checks after integrity, in order; each step passes, fails or is skipped, and a step that
 * decides marks the ones after it skipped.
 */
function checklist(done: Check[], names: string[]) {
  const checks = [...done];
  const record = (name: string, outcome: Check["outcome"], detail: string) => {
    checks.push({ name, outcome, detail });
    names.splice(names.indexOf(name), 1);
  };
  return {
    checks,
    pass: (name: string, detail: string) => record(name, "passed", detail),
    fail: (name: string, detail: string) => record(name, "failed", detail),
    skip: (name: string, detail: string) => record(name, "skipped", detail),
    /** Marks every step not yet run as skipped. */
    rest: (detail = "Not run: an earlier check decided the outcome") => {
      for (const name of [...names]) record(name, "skipped", detail);
      return checks;
    },
  };
}

/** The outcome a sandbox reference prefix forces, whatever the document holds. */
function forcedDecision(item: VerificationItem, steps: Checklist): Decision | undefined {
  const forced = forcedOutcome(item.environment, item.external_reference_id);
  if (!forced) return undefined;
  const checks = steps.rest(`Not run: the sandbox reference prefix ${forced.prefix} chose the outcome`);
  const { outcome, prefix } = forced;
  if (outcome.kind === "failed")
    return { to: "failed", checks, failureCode: outcome.reasonCode, sandboxPrefix: prefix };
  if (outcome.kind === "review") return { to: "in_review", checks, reason: "review_requested", sandboxPrefix: prefix };
  return { to: "completed", checks, result: outcome.result, reasonCode: outcome.reasonCode, sandboxPrefix: prefix };
}

/** Why the issuer's answer cannot be had, in the words of the authority check. */
const UNAVAILABLE_DETAIL = {
  timeout: "the issuer did not answer in time",
  http_error: "the issuer answered with an error",
  busy: "the issuer was busy",
  unrecognised: "the issuer answered in a way the service does not recognise",
  unreachable: "the issuer could not be reached",
} as const;

/**
 * Authenticity: the issuer's copy for the document's keys, compared byte for byte. Decides
 * when the issuer has no such document, or when the upload differs from the copy, cannot be
 * compared (a photo) or the issuer cannot be asked; `Pending` while the answer is awaited.
 */
async function authenticity(
  item: VerificationItem,
  upload: Uint8Array,
  keys: Required<DocumentKeys>,
  photo: boolean,
  steps: Checklist,
  issuer: IssuerGate | undefined,
): Promise<Decision | Pending | "matched"> {
  const unavailable = (detail: string): Decision => {
    steps.skip("authority_match", detail);
    return {
      to: "in_review",
      checks: steps.rest(),
      reason: photo ? "original_pdf_not_provided" : "issuer_unavailable",
    };
  };
  if (!issuer) return unavailable("No issuer integration is configured");
  const answer = await issuer.answerFor(item, keys);
  if (answer.kind === "pending") return answer;
  if (answer.kind === "unavailable") {
    return unavailable(`No answer: ${UNAVAILABLE_DETAIL[answer.cause]}, though asked again for the whole retry window`);
  }
  if (answer.kind === "not_found") {
    steps.fail("authority_match", "The issuer has no document with this barcode for this identity number");
    const checks = steps.rest();
    return photo
      ? { to: "in_review", checks, reason: "original_pdf_not_provided" }
      : { to: "completed", checks, result: "rejected", reasonCode: "document_not_found_at_issuer" };
  }
  // The copy is kept beside the upload whatever follows: the evidence of an alteration, or what a reviewer compares.
  if (photo) {
    steps.skip("authority_match", "A photo cannot be compared byte for byte; the issuer's copy is kept for review");
    return { to: "in_review", checks: steps.rest(), reason: "original_pdf_not_provided", issuerCopy: true };
  }
  if (!sameBytes(upload, answer.document)) {
    steps.fail("authority_match", "The document differs from the issuer's copy");
    return {
      to: "completed",
      checks: steps.rest(),
      result: "rejected",
      reasonCode: "document_altered",
      fraudSignals: ["document_altered"],
      issuerCopy: true,
    };
  }
  steps.pass("authority_match", "The document is byte for byte the issuer's copy");
  return "matched";
}

/** What follows a confirmed document: its fields from the issuer's copy, the type's rule, the expected subject. */
function confirmedDecision(
  item: VerificationItem,
  content: DocumentContent,
  barcode: string,
  steps: Checklist,
  keyedNumber: string | undefined,
): Decision {
  const layout = layoutOf(item.document_type);
  // The upload is the issuer's copy, so its text is the copy's text.
  const { fields, incomplete } = layout.read(content.lines, barcode);
  const extracted = { schema: layout.schema, source: "issuer_copy", fields } as Extracted;
  if (incomplete.length > 0) {
    steps.fail("fields_extracted", `Missing or malformed: ${incomplete.join(", ")}`);
    return { to: "in_review", checks: steps.rest(), reason: "fields_incomplete", extracted, issuerCopy: true };
  }
  steps.pass("fields_extracted", `Read the ${layout.schema} fields from the issuer's copy`);

  // From here the issuer confirmed the document: every decision shows the fields and keeps the copy.
  const decided = (result: Result, reasonCode: ReasonCode): Decision => ({
    to: "completed",
    checks: steps.rest(),
    result,
    reasonCode,
    extracted,
    issuerCopy: true,
  });
  if (!layout.rule.passes(fields)) {
    steps.fail(layout.rule.check, layout.rule.failedDetail);
    return decided("rejected", layout.rule.reasonCode);
  }
  steps.pass(layout.rule.check, layout.rule.passedDetail);

  if (item.expected_subject) {
    if (!sameSubject(item.expected_subject, layout.subject(fields), keyedNumber)) {
      steps.fail("subject_match", "The document is about someone other than the expected subject");
      return decided("rejected", "subject_mismatch");
    }
    steps.pass("subject_match", "The expected subject is the one the document names");
  }
  return decided("verified", "verified");
}

/**
 * From the document's keys on: no keys, the issuer's copy, then what the confirmed document
 * says; `Pending` while the issuer's answer is awaited.
 */
async function decideByKeys(
  item: VerificationItem,
  upload: Uint8Array,
  content: DocumentContent,
  keys: DocumentKeys,
  photo: boolean,
  steps: Checklist,
  issuer: IssuerGate | undefined,
  keyedNumber: string | undefined,
): Promise<Decision | Pending> {
  if (!keys.barcode || !keys.identityNumber) {
    steps.fail(
      "barcode_found",
      photo
        ? "The photo holds no QR code with the barcode number and identity number"
        : "The PDF carries no barcode number and identity number, in its text or its QR code",
    );
    const checks = steps.rest();
    return photo
      ? { to: "in_review", checks, reason: "original_pdf_not_provided" }
      : { to: "completed", checks, result: "rejected", reasonCode: "barcode_missing" };
  }
  steps.pass("barcode_found", `Barcode ${keys.barcode} and the identity number were read`);
  const authentic = await authenticity(
    item,
    upload,
    { barcode: keys.barcode, identityNumber: keys.identityNumber },
    photo,
    steps,
    issuer,
  );
  if (authentic !== "matched") return authentic;
  return confirmedDecision(item, content, keys.barcode, steps, keyedNumber);
}

/** The digest of the identity number the document's keys carry, when the customer expects one. */
async function keyedNumberOf(deps: ProcessDeps, item: VerificationItem, identityNumber: string | undefined) {
  if (item.expected_subject?.identity_number_digest === undefined || identityNumber === undefined) return undefined;
  return deps.subjects.digest(identityNumber);
}

/** The checks after the keys, for every verification. */
function stepsAfterKeys(item: VerificationItem): string[] {
  return [
    "barcode_found",
    "authority_match",
    "fields_extracted",
    layoutOf(item.document_type).rule.check,
    ...(item.expected_subject ? ["subject_match"] : []),
  ];
}

/**
 * A verification by its keys (`submitted_keys`): no upload and no inspection; the issuer's copy
 * for the keys sent is all the evidence, and everything is read from it.
 */
async function decideSubmitted(
  item: VerificationItem,
  barcode: string,
  deps: ProcessDeps,
  issuer: IssuerGate | undefined,
): Promise<Decision | Pending> {
  const steps = checklist([], stepsAfterKeys(item));
  const forced = forcedDecision(item, steps);
  if (forced) return forced;
  steps.pass("barcode_found", `Barcode ${barcode} and the identity number were sent with the request`);
  const unavailable = (detail: string): Decision => {
    steps.skip("authority_match", detail);
    return { to: "in_review", checks: steps.rest(), reason: "issuer_unavailable", keys: { barcode } };
  };
  if (!issuer) return unavailable("No issuer integration is configured");
  const answer = await issuer.answerFor(item, { barcode });
  if (answer.kind === "pending") return answer;
  if (answer.kind === "unavailable") {
    return unavailable(`No answer: ${UNAVAILABLE_DETAIL[answer.cause]}, though asked again for the whole retry window`);
  }
  if (answer.kind === "not_found") {
    steps.fail("authority_match", "The issuer has no document with this barcode for this identity number");
    return {
      to: "completed",
      checks: steps.rest(),
      result: "rejected",
      reasonCode: "document_not_found_at_issuer",
      keys: { barcode },
    };
  }
  steps.pass("authority_match", "The issuer holds the document for the keys sent; there was no upload to compare");
  const copy = await deps.reader.read("pdf", answer.document);
  if (!copy.readable) {
    steps.fail("fields_extracted", `The issuer's copy could not be read: ${copy.reason}`);
    return { to: "in_review", checks: steps.rest(), reason: "fields_incomplete", issuerCopy: true, keys: { barcode } };
  }
  // The issuer answered for the number sent: the number its copy prints is that number.
  const keys = { barcode, identityNumber: documentKeys(copy.content).identityNumber };
  const keyedNumber = await keyedNumberOf(deps, item, keys.identityNumber);
  return { ...confirmedDecision(item, copy.content, barcode, steps, keyedNumber), keys };
}

/** The decision table, in order; `Pending` while the issuer's answer is awaited. */
async function decide(
  item: VerificationItem,
  upload: Uint8Array | undefined,
  deps: ProcessDeps,
  issuer: IssuerGate | undefined,
): Promise<Decision | Pending> {
  if (item.submitted_keys) return decideSubmitted(item, item.submitted_keys.barcode, deps, issuer);
  const inspection = await inspectDocument(deps.reader, item, upload);
  if (inspection.failureCode !== undefined || !upload) {
    return { to: "failed", checks: inspection.checks, failureCode: inspection.failureCode ?? "document_missing" };
  }
  const steps = checklist(inspection.checks, stepsAfterKeys(item));
  const forced = forcedDecision(item, steps);
  if (forced) return forced;

  const photo = inspection.fileType !== "pdf";
  const keys = documentKeys(inspection.content);
  const keyedNumber = await keyedNumberOf(deps, item, keys.identityNumber);
  const decision = await decideByKeys(item, upload, inspection.content, keys, photo, steps, issuer, keyedNumber);
  // The decision that read the keys records them, for the reviewer.
  return "kind" in decision ? decision : { ...decision, keys };
}

/**
 * What a decision removes with its change of state: the expected identity number's digest, and
 * a submitted identity number still sealed (the issuer was never asked: none is configured).
 */
function forgotten(item: VerificationItem): VerificationChange {
  const { expected_subject: expected, submitted_keys: submitted } = item;
  const { identity_number_digest: digest, ...subject } = expected ?? {};
  return {
    ...(digest === undefined ? {} : { expected_subject: subject }),
    ...(submitted?.identity_number_sealed === undefined ? {} : { submitted_keys: { barcode: submitted.barcode } }),
  };
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
    ...forgotten(item),
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
        ...(decision.fraudSignals ? { fraud_signals: decision.fraudSignals } : {}),
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
 * verification is still processing, and writes only if nobody else has.
 */
export async function processVerification(
  deps: ProcessDeps,
  id: string,
  /** The issuer queue's reader asks itself; every other processor only sends the lookup to it. */
  asker?: IssuerGate,
): Promise<VerificationItem | undefined> {
  const item = await deps.verifications.get(id);
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
    expect: { sequence: item.sequence },
  });
  if (outcome.applied && decision.to === "in_review" && decision.reason === "issuer_unavailable") {
    deps.log.count("IssuerUnavailableReviews", item.environment, "a verification went to review: no issuer answer", {
      verification_id: id,
    });
  }
  return outcome.item;
}
