import { type AuditAction, type AuditContext, auditPositionSchema, auditRecord } from "../../domain/audit.ts";
import { ValidationError } from "../../domain/errors.ts";
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { AuditRecord } from "../../domain/responses/audit.ts";
import type { AuditFilter, AuditNarrowing, AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";

/**
 * The audit trail, newest first: one verification's, one actor's (by `sub`), or everyone's, of
 * one action or all, made in a span of time or whenever. It
 * names people and where they worked from, so reading it is recorded too (after the page is
 * read, so a page never lists its own reading).
 */
export async function readAudit(
  deps: { audit: Pick<AuditTrail, "page" | "append">; clock: Clock },
  context: AuditContext,
  input: {
    verificationId?: string;
    actor?: string;
    action?: AuditAction;
    /** ISO 8601 times: from `since`, before `until`. */
    since?: string;
    until?: string;
    limit: number;
    cursor?: string;
  },
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
  const narrowing: AuditNarrowing = {
    action: input.action,
    since: input.since === undefined ? undefined : new Date(input.since),
    until: input.until === undefined ? undefined : new Date(input.until),
  };
  if (narrowing.since && narrowing.until && narrowing.until <= narrowing.since) {
    throw new ValidationError([{ field: "until", code: "invalid", message: "until must be later than since" }]);
  }
  const before = input.cursor === undefined ? undefined : decodeCursor(input.cursor, auditPositionSchema).before;
  const page = await deps.audit.page(filter, input.limit, before, narrowing);
  const looked: Record<string, string> =
    input.verificationId !== undefined
      ? { verification_id: input.verificationId }
      : input.actor !== undefined
        ? { actor: input.actor }
        : {};
  await deps.audit.append(
    auditRecord(context, deps.clock.now(), {
      action: "audit.viewed",
      detail: {
        ...looked,
        ...(input.action ? { action: input.action } : {}),
        ...(input.since ? { since: input.since } : {}),
        ...(input.until ? { until: input.until } : {}),
        results: String(page.records.length),
      },
    }),
  );
  const last = page.records.at(-1);
  return { data: page.records, next_cursor: page.more && last ? encodeCursor({ before: last.audit_id }) : null };
}
