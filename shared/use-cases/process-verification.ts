import { DOCUMENT_TYPES, type TypeCheck } from "../domain/document-types.ts";
import type { Result } from "../domain/state.ts";
import { isoSeconds } from "../domain/time.ts";
import type { Check, Reason, VerificationItem } from "../domain/verification.ts";
import type { Authority } from "../ports/authority.ts";
import type { Clock } from "../ports/clock.ts";
import type { DocumentReader } from "../ports/document-reader.ts";
import type { DocumentStore } from "../ports/document-store.ts";
import type { VerificationStore } from "../ports/verification-store.ts";
import { inspectDocument } from "./inspect-document.ts";

export interface ProcessDeps {
  verifications: Pick<VerificationStore, "get" | "transition">;
  documents: Pick<DocumentStore, "read">;
  reader: DocumentReader;
  /** The environment's issuing authority; none means the authority check cannot run. */
  authority: Authority | undefined;
  clock: Clock;
}

type Outcome =
  | { to: "completed"; checks: Check[]; result: Result; reasons: Reason[] }
  | { to: "failed"; checks: Check[]; failureCode: string };

async function typeCheck(
  check: TypeCheck,
  item: VerificationItem,
  document: Uint8Array,
  authority: Authority | undefined,
): Promise<{ check: Check; result: Result; reason?: Reason } | { check: Check; failureCode: string }> {
  const name = check;
  if (!authority) {
    return {
      check: { name, outcome: "skipped", detail: "No authority integration is configured" },
      result: "inconclusive",
      reason: {
        code: "authority_check_unavailable",
        message: "The issuing authority could not be asked to confirm the document",
      },
    };
  }
  switch (await authority.confirm(item, document)) {
    case "confirmed":
      return {
        check: { name, outcome: "passed", detail: "The issuing authority confirmed the document" },
        result: "verified",
      };
    case "not_confirmed":
      return {
        check: { name, outcome: "failed", detail: "The issuing authority did not confirm the document" },
        result: "rejected",
        reason: { code: "authority_not_confirmed", message: "The issuing authority did not confirm this document" },
      };
    case "inconclusive":
      return {
        check: { name, outcome: "skipped", detail: "The issuing authority gave no answer" },
        result: "inconclusive",
        reason: { code: "authority_inconclusive", message: "The issuing authority could neither confirm nor deny" },
      };
    case "error":
      return {
        check: { name, outcome: "failed", detail: "The issuing authority could not process the document" },
        failureCode: "authority_error",
      };
  }
}

const RESULT_RANK: Record<Result, number> = { verified: 0, inconclusive: 1, rejected: 2 };

/** Runs every check and decides the terminal state: the worst result of the type's checks. */
async function decide(item: VerificationItem, document: Uint8Array | undefined, deps: ProcessDeps): Promise<Outcome> {
  const inspection = await inspectDocument(deps.reader, item, document);
  if (inspection.failureCode || !document) {
    return { to: "failed", checks: inspection.checks, failureCode: inspection.failureCode ?? "document_missing" };
  }
  const checks = [...inspection.checks];
  const reasons: Reason[] = [];
  let result: Result = "verified";
  for (const check of DOCUMENT_TYPES[item.document_type].checks) {
    const outcome = await typeCheck(check, item, document, deps.authority);
    checks.push(outcome.check);
    if ("failureCode" in outcome) return { to: "failed", checks, failureCode: outcome.failureCode };
    if (outcome.reason) reasons.push(outcome.reason);
    if (RESULT_RANK[outcome.result] > RESULT_RANK[result]) result = outcome.result;
  }
  return { to: "completed", checks, result, reasons };
}

/**
 * Takes a verification in `processing` to its terminal state. Safe to run twice: it does
 * nothing unless the verification is still processing, and writes only if nobody else has.
 */
export async function processVerification(deps: ProcessDeps, id: string): Promise<VerificationItem | undefined> {
  const item = await deps.verifications.get(id);
  if (item?.status !== "processing") return item;
  const outcome = await decide(item, await deps.documents.read(item.object_key), deps);
  const now = isoSeconds(deps.clock.now());
  const written = await deps.verifications.transition({
    id,
    from: "processing",
    to: outcome.to,
    now,
    set:
      outcome.to === "completed"
        ? { result: outcome.result, checks: outcome.checks, reasons: outcome.reasons, completed_at: now }
        : { failure_code: outcome.failureCode, checks: outcome.checks, completed_at: now },
    condition: { expression: "#sequence = :seen", values: { ":seen": item.sequence } },
  });
  return written.item;
}
