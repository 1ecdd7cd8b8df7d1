/**
 * `ops audit verify`: reads each month of the trail beside its signed digests and names every
 * record that does not agree with them (`checkMonth`), every digest the sealing key did not sign,
 * and every record kept outside its place (its month's chain: `AUDIT_CHAINS`).
 */
import {
  type AuditFinding,
  checkMonth,
  digestHash,
  type MonthCheck,
  retainedMonths,
  type SignedDigest,
} from "../../domain/audit-digests.ts";
import type { AuditDigests, AuditPrints, AuditStrays, DigestVerifier } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";

export interface TrailCheck {
  months: MonthCheck[];
  /** Records kept outside their month's chain: never shown, never sealed. */
  strays: AuditFinding[];
  /** Every finding, the months' and the strays'. */
  findings: AuditFinding[];
}

/** The month's digests, each with whether the sealing key signed it. */
export async function checkedDigests(
  deps: { digests: AuditDigests; verifier: DigestVerifier },
  month: string,
): Promise<{ signed: SignedDigest; valid: boolean }[]> {
  const digests = await deps.digests.digests(month);
  return Promise.all(
    digests.map(async (signed) => ({
      signed,
      valid: await deps.verifier.verify(digestHash(signed.digest), signed.signature),
    })),
  );
}

/** Checks the months from `from` (the retention's first by default) to `to` (this month by default). */
export async function verifyAuditTrail(
  deps: { prints: AuditPrints; strays: AuditStrays; digests: AuditDigests; verifier: DigestVerifier; clock: Clock },
  range: { from?: string; to?: string },
): Promise<TrailCheck> {
  const now = deps.clock.now();
  const months: MonthCheck[] = [];
  for (const month of retainedMonths(now)) {
    if ((range.from && month < range.from) || (range.to && month > range.to)) continue;
    const [digests, records] = await Promise.all([checkedDigests(deps, month), deps.prints.prints(month)]);
    if (digests.length === 0 && records.length === 0) continue;
    months.push(checkMonth({ month, digests, records, now }));
  }
  const strays: AuditFinding[] = (await deps.strays.strays()).map((auditId) => ({
    kind: "stray",
    month: "-",
    audit_id: auditId,
    reason: "the record is kept outside its own month's chain, where no listing shows it and no digest can seal it",
  }));
  return { months, strays, findings: [...months.flatMap((month) => month.findings), ...strays] };
}
