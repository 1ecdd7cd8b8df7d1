/** What the admins' reading of the audit trail takes: its own module, so no function that only writes records carries it. */
import { AUDIT_ACTIONS } from "./audit.ts";
import { ID_PATTERNS } from "./ids.ts";
import { cursorSchema, limitSchema } from "./lists.ts";
import * as z from "./zod.ts";

/** GET /backoffice/v1/audit */
export const auditQuerySchema = z.strictObject({
  verification_id: z
    .optional(z.string().check(z.regex(ID_PATTERNS.verification)))
    .check(z.describe("One verification's records")),
  actor: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(z.describe("One actor's records, by `actor.sub`")),
  action: z.optional(z.enum(AUDIT_ACTIONS)).check(z.describe("Only records of this action")),
  since: z.optional(z.iso.datetime({ offset: true })).check(z.describe("Only records made at or after this time")),
  until: z.optional(z.iso.datetime({ offset: true })).check(z.describe("Only records made before this time")),
  limit: limitSchema,
  cursor: z.optional(cursorSchema),
});
