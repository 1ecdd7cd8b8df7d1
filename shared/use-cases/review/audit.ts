import { auditPositionSchema } from "../../domain/audit.ts";
import { ValidationError } from "../../domain/errors.ts";
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { AuditRecord } from "../../domain/responses/audit.ts";
import type { AuditFilter, AuditTrail } from "../../ports/audit-trail.ts";

/** The audit trail, newest first: one verification's, one actor's (by `sub`), or everyone's. */
export async function readAudit(
  deps: { audit: Pick<AuditTrail, "page"> },
  input: { verificationId?: string; actor?: string; limit: number; cursor?: string },
): Promise<{ data: AuditRecord[]; next_cursor: string | null }> {
  if (input.verificationId !== undefined && input.actor !== undefined) {
    throw new ValidationError([
      { field: "actor", code: "conflict", message: "Filter by verification_id or by actor, not both" },
    ]);
  }
  const filter: AuditFilter =
    input.verificationId !== undefined
      ? { verificationId: input.verificationId }
      : input.actor !== undefined
        ? { actorSub: input.actor }
        : {};
  const before = input.cursor === undefined ? undefined : decodeCursor(input.cursor, auditPositionSchema).before;
  const page = await deps.audit.page(filter, input.limit, before);
  const last = page.records.at(-1);
  return { data: page.records, next_cursor: page.more && last ? encodeCursor({ before: last.audit_id }) : null };
}
