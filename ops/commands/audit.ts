/** `ops audit`: check that no record of the audit trail was changed, month by month. */
import { type Command, InvalidArgumentError } from "commander";
import { verifyAuditChain } from "#shared/use-cases/audit/verify";
import { EXIT } from "../failures.ts";
import { fields } from "../output.ts";
import type { Run } from "../program.ts";

/** A month, `YYYY-MM`. */
function month(value: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) throw new InvalidArgumentError("expected a month, YYYY-MM");
  return value;
}

export function addAuditCommands(program: Command, run: Run): void {
  const audit = program.command("audit").description("the audit trail of every staff, portal and operator action");

  audit
    .command("verify")
    .description("walk each month's chain of records and name the first one that does not follow from the one before")
    .option("--from <month>", "the first month (YYYY-MM); the trail's retention by default", month)
    .option("--to <month>", "the last month (YYYY-MM); this month by default", month)
    .action((options: { from?: string; to?: string }, command: Command) =>
      run(command, async (target) => {
        const check = await verifyAuditChain({ audit: target.audit, clock: target.clock }, options);
        const records = check.months.reduce((sum, checked) => sum + checked.records, 0);
        const read = `${records} record(s) in ${check.months.length} month(s) of ${target.label}`;
        if (!check.broken) {
          return { json: { ok: true, months: check.months }, text: `The audit trail holds: ${read}.` };
        }
        const { month: brokenMonth, audit_id, seq, reason } = check.broken;
        return {
          json: { ok: false, months: check.months, broken: check.broken },
          text: [
            `The audit trail is broken in ${brokenMonth} (${read} read up to it):`,
            fields([
              ["record", audit_id || "-"],
              ["place", seq ? String(seq) : "-"],
              ["why", reason],
            ]),
          ].join("\n"),
          exit: EXIT.failed,
        };
      }),
    );
}
