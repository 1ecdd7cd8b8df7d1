/**
 * An audit record as the backoffice's audit trail answers it, and as the trail keeps it: a wire
 * schema for the OpenAPI document and the tests; no function builds it (`audit.ts` makes the
 * records).
 */
import { AUDIT_ACTIONS, AUDIT_ID_PATTERN } from "../audit.ts";
import { ID_PATTERNS } from "../ids.ts";
import * as z from "../zod.ts";

export const actorSchema = z
  .strictObject({
    pool: z
      .enum(["staff", "portal", "operator"])
      .check(z.describe("Which user pool the actor signed in to, or `operator` for the ops command")),
    sub: z
      .string()
      .check(
        z.describe(
          "The user's stable id in that pool (an operator's IAM principal, or OS user locally); `actor=` filters by it",
        ),
      ),
    username: z.string(),
  })
  .check(z.describe("Who acted"));
export type Actor = z.infer<typeof actorSchema>;

export const auditRecordSchema = z
  .strictObject({
    audit_id: z.string().check(z.regex(AUDIT_ID_PATTERN), z.describe("`aud_` and a ULID: sorts by time")),
    at: z.iso.datetime(),
    actor: actorSchema,
    action: z.enum(AUDIT_ACTIONS),
    verification_id: z.optional(z.string().check(z.regex(ID_PATTERNS.verification))),
    app_id: z.optional(z.string().check(z.regex(ID_PATTERNS.app))),
    organization_id: z.optional(z.string().check(z.regex(ID_PATTERNS.organization))),
    detail: z
      .optional(z.record(z.string(), z.string()))
      .check(z.describe("What the action was about: the copy viewed, the result decided")),
    request_id: z.string().check(z.describe("The request's `Request-Id`")),
    source_ip: z.string(),
  })
  .check(z.describe("One action in the audit trail"));
export type AuditRecord = z.infer<typeof auditRecordSchema>;
