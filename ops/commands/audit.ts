/** `ops audit`: check the audit trail against its signed digests, month by month. */
import { InvalidArgumentError } from "commander";
import { SEAL_OVERDUE_MS } from "#shared/domain/audit-digests";
import { verifyAuditTrail } from "#shared/use-cases/audit/verify";
import { type Given, type GroupDefinition, option } from "../definitions.ts";
import { EXIT } from "../failures.ts";
import { table } from "../output.ts";

/** A month, `YYYY-MM`. */
function month(value: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) throw new InvalidArgumentError("expected a month, YYYY-MM");
  return value;
}

/** How many findings the readable answer lists; `--json` has them all. */
const SHOWN_FINDINGS = 50;

export const AUDIT: GroupDefinition = {
  name: "audit",
  description: "the audit trail of every staff, portal and operator action",
  commands: [
    {
      name: "verify",
      description:
        "check each month's records against the digests the sealer signed, and name every record changed, put in, removed or kept outside its month's chain",
      options: [
        option("--from <month>", "the first month (YYYY-MM); the trail's retention by default", month),
        option("--to <month>", "the last month (YYYY-MM); this month by default", month),
      ],
      reaches: "target",
      run: async (target, { options }: Given<[], { from?: string; to?: string }>) => {
        const check = await verifyAuditTrail({ ...(await target.auditCheck()), clock: target.clock }, options);
        const sealed = check.months.reduce((sum, checked) => sum + checked.sealed, 0);
        const pending = check.months.reduce((sum, checked) => sum + checked.pending, 0);
        const read = `${sealed} sealed record(s) in ${check.months.length} month(s) of ${target.label}`;
        const waiting =
          pending > 0
            ? `; ${pending} newer record(s) wait for the next seal (within ${SEAL_OVERDUE_MS / 60_000} minutes)`
            : "";
        const json = { ok: check.findings.length === 0, months: check.months, findings: check.findings };
        if (check.findings.length === 0) return { json, text: `The audit trail holds: ${read}${waiting}.` };
        const listed = check.findings.slice(0, SHOWN_FINDINGS);
        const more = check.findings.length - listed.length;
        return {
          json,
          text: [
            `The audit trail does not agree with its signed digests: ${check.findings.length} finding(s) (${read}${waiting}).`,
            table(
              [
                ["month", (finding) => finding.month],
                ["finding", (finding) => finding.kind],
                ["record", (finding) => finding.audit_id ?? (finding.digest ? `digest ${finding.digest}` : undefined)],
                ["why", (finding) => finding.reason],
              ],
              listed,
            ),
            ...(more > 0 ? [`... and ${more} more (--json lists them all)`] : []),
          ].join("\n"),
          exit: EXIT.failed,
        };
      },
    },
  ],
};
