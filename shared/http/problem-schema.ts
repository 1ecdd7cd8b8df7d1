/**
 * The problem+json body as a wire schema, for the OpenAPI documents and the tests; no function
 * builds it (`problems.ts` is the catalogue and the body every error answers).
 */
import type { FieldError } from "../domain/errors.ts";
import * as z from "../domain/zod.ts";
import { PROBLEM_CODES, PROBLEM_TYPE_PREFIX } from "./problems.ts";

export const fieldErrorSchema: z.ZodMiniType<FieldError> = z
  .strictObject({
    field: z.string().check(z.describe("The request field, or `(body)`")),
    code: z.string().check(z.describe("e.g. `required`, `unknown_field`, `too_large`, `invalid_value`")),
    message: z.string(),
  })
  .check(z.describe("One invalid field of a `validation_failed` request"));

/** Every error body, from a handler or from the gateway. */
export const problemSchema = z
  .strictObject({
    type: z
      .string()
      .check(z.startsWith(PROBLEM_TYPE_PREFIX), z.describe("A URN naming the problem: the prefix and `code`")),
    title: z.string().check(z.describe("A short summary, the same for every occurrence of `code`")),
    status: z.int().check(z.gte(400), z.lte(599), z.describe("The HTTP status code")),
    detail: z.string().check(z.describe("What went wrong this time, for a person")),
    code: z.enum(PROBLEM_CODES).check(z.describe("Stable and machine-readable: branch on this")),
    request_id: z
      .string()
      .check(z.minLength(1), z.describe("The `Request-Id` header of this response: quote it to support")),
    errors: z.optional(z.array(fieldErrorSchema)).check(z.describe("Every invalid field, for `validation_failed`")),
    limit: z.optional(
      z
        .strictObject({
          name: z.enum(["apps_per_organization", "members_per_organization", "pending_invites_per_organization"]),
          max: z.int().check(z.gte(1)),
        })
        .check(z.describe("For `limit_reached`: which of the organisation's limits, and its value")),
    ),
  })
  .check(z.describe("An RFC 9457 problem details body, sent as application/problem+json"));
export type ProblemBody = z.infer<typeof problemSchema>;
