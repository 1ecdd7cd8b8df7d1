/**
 * The sealer (every few minutes, `seal-audit`): for each month of the retention not yet closed,
 * lists the records written since its last digest, signs the digests that seal them
 * (`digestsToSeal`) and keeps them. Every month that has ended is closed, an empty one too, so
 * a record put in a past month later is named. A month is closed only after its records are
 * checked against its digests: a broken month is left open and reported, never sealed over.
 */
import {
  type AuditFinding,
  checkMonth,
  digestHash,
  digestsToSeal,
  retainedMonths,
} from "../../domain/audit-digests.ts";
import type { AuditDigests, AuditPrints, DigestSigner, DigestVerifier } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import { checkedDigests } from "./verify.ts";

export interface SealDeps {
  prints: AuditPrints;
  digests: AuditDigests;
  signer: DigestSigner;
  verifier: DigestVerifier;
  clock: Clock;
}

export interface SealOutcome {
  /** Records sealed by this run, and digests written. */
  sealed: number;
  digests: number;
  /** Months closed by this run. */
  closed: string[];
  /** What kept a month from closing. */
  findings: AuditFinding[];
}

export async function sealAudit(deps: SealDeps): Promise<SealOutcome> {
  const now = deps.clock.now();
  const outcome: SealOutcome = { sealed: 0, digests: 0, closed: [], findings: [] };
  for (const month of retainedMonths(now)) {
    const last = (await deps.digests.last(month))?.digest;
    if (last?.closes) continue;
    const unsealed = await deps.prints.prints(month, last?.records.at(-1)?.audit_id);
    const due = digestsToSeal(month, last, unsealed, now);
    if (due.at(-1)?.closes) {
      // The month as it would stand closed: its digests so far, and those about to be signed.
      const check = checkMonth({
        month,
        digests: [
          ...(await checkedDigests(deps, month)),
          ...due.map((digest) => ({ signed: { digest, signature: "" }, valid: true })),
        ],
        records: await deps.prints.prints(month),
        now,
      });
      if (check.findings.length > 0) {
        outcome.findings.push(...check.findings);
        continue;
      }
    }
    for (const digest of due) {
      const kept = await deps.digests.keep({ digest, signature: await deps.signer.sign(digestHash(digest)) });
      // Another run sealed the month at the same moment: the next run goes on from its digests.
      if (!kept) break;
      outcome.digests += 1;
      outcome.sealed += digest.records.length;
      if (digest.closes) outcome.closed.push(month);
    }
  }
  return outcome;
}
