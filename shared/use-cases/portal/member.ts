/** What every portal use case starts from: the caller's organisation, and only its apps. */
import type { AppItem } from "../../domain/apps.ts";
import { type AuditEntry, auditRecord } from "../../domain/audit.ts";
import { type FieldError, InvalidInputError, RefusedError, ValidationError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import type { Member, PortalCaller } from "../../domain/organizations.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import { appNotFound } from "../accounts/current-app.ts";

/** The app `appId` if the caller's organisation owns it; any other app reads as not found. */
export async function memberApp(apps: Pick<AppStore, "getApp">, member: Member, appId: string): Promise<AppItem> {
  const app = isId("app", appId) ? await apps.getApp(appId) : undefined;
  if (!app || app.organization_id !== member.organizationId) throw appNotFound(appId);
  return app;
}

/** Appends the record of what the caller did in their organisation. */
export async function recordAction(
  deps: { audit: Pick<AuditTrail, "append">; clock: Clock },
  caller: PortalCaller,
  entry: Omit<AuditEntry, "actor" | "request_id" | "source_ip" | "organization_id">,
): Promise<void> {
  await deps.audit.append(auditRecord(caller.audit, deps.clock.now(), entry));
}

/**
 * Records a read of verifications: one record per verification it showed, each naming it (so a
 * verification's own trail lists every read that showed it), or one record when it showed none.
 */
export async function recordRead(
  deps: { audit: Pick<AuditTrail, "appendAll">; clock: Clock },
  caller: PortalCaller,
  entry: Omit<AuditEntry, "actor" | "request_id" | "source_ip" | "organization_id" | "verification_id">,
  shown: readonly { verification_id: string; app_id: string }[],
): Promise<void> {
  const now = deps.clock.now();
  const records = shown.length
    ? shown.map(({ verification_id, app_id }) => auditRecord(caller.audit, now, { ...entry, app_id, verification_id }))
    : [auditRecord(caller.audit, now, entry)];
  await deps.audit.appendAll(records);
}

/**
 * Runs a rule shared with the ops command, whose refusal of a value (a name, a URL) is the
 * portal's `validation_failed` on `field`.
 */
export async function asFieldRule<T>(field: string, rule: () => T | Promise<T>): Promise<T> {
  try {
    return await rule();
  } catch (error) {
    const refused =
      (error instanceof InvalidInputError && error.code === "invalid_input") ||
      (error instanceof RefusedError && error.code === "webhook_url_not_allowed");
    if (!refused) throw error;
    const fieldError: FieldError = { field, code: "not_allowed", message: error.message };
    throw new ValidationError([fieldError]);
  }
}
