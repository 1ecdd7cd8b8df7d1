/** Reading a request: its body, its headers, and the contract's error for each way they go wrong. */
import type { APIGatewayProxyEvent } from "aws-lambda";
import { type FieldError, InvalidInputError, ValidationError } from "../domain/errors.ts";
import { type NewVerification, newVerificationSchema } from "../domain/new-verification.ts";
import * as z from "../domain/zod.ts";
import { bodyText, header } from "./responses.ts";

/** What was sent at `path` (undefined where nothing was). */
function valueAt(sent: object, path: readonly PropertyKey[]): unknown {
  let value: unknown = sent;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function fieldErrors(error: z.core.$ZodError, sent: object): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const field = issue.path.join(".") || "(body)";
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.keys.map((key) => {
          const name = [...issue.path, key].join(".");
          return { field: name, code: "unknown_field", message: `${name} is not a field of this request` };
        });
      case "invalid_type":
        return [
          valueAt(sent, issue.path) === undefined
            ? { field, code: "required", message: `${field} is required` }
            : {
                field,
                code: "invalid_type",
                message: `${field} must be ${issue.expected === "int" ? "an integer" : `a ${issue.expected}`}`,
              },
        ];
      case "too_big":
        return [
          {
            field,
            code: issue.origin === "string" ? "too_long" : "too_large",
            message: `${field} must be at most ${issue.maximum}${issue.origin === "string" ? " characters" : ""}`,
          },
        ];
      case "too_small":
        return [
          {
            field,
            code: issue.origin === "string" ? "too_short" : "too_small",
            message: `${field} must be at least ${issue.minimum}${issue.origin === "string" ? " characters" : ""}`,
          },
        ];
      case "invalid_value":
        return [
          {
            field,
            code: "invalid_value",
            message: `${field} must be one of: ${issue.values.map(String).join(", ")}`,
          },
        ];
      case "custom":
        return [{ field, code: String(issue.params?.code ?? "invalid"), message: issue.message }];
      default:
        return [{ field, code: "invalid_format", message: issue.message }];
    }
  });
}

/** A create body, parsed and checked, or the error the contract prescribes. */
export function parseCreateBody(text: string): NewVerification {
  return parseJsonBody(text, newVerificationSchema);
}

/** A JSON object body, parsed and checked against `schema`, or the error the contract prescribes. */
export function parseJsonBody<T>(text: string, schema: z.ZodMiniType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidInputError("malformed_json", "The request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidInputError("malformed_json", "The request body must be a JSON object");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, value));
  return parsed.data;
}

/** The query parameters, checked against `schema`: an unknown or invalid one is `validation_failed`. */
export function parseQuery<T>(parameters: Record<string, string | undefined> | null, schema: z.ZodMiniType<T>): T {
  const sent = parameters ?? {};
  const parsed = schema.safeParse(sent);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, sent));
  return parsed.data;
}

export const idempotencyKey = z
  .string()
  .check(
    z.regex(/^[\x20-\x7e]{1,255}$/),
    z.describe("One stable key per create request, reused only to retry that same request; kept 24 hours"),
  );

export function parseIdempotencyKey(value: string | undefined): string {
  if (value === undefined) {
    throw new InvalidInputError(
      "idempotency_key_missing",
      "Send an Idempotency-Key header: one stable key per create request",
    );
  }
  const parsed = idempotencyKey.safeParse(value);
  if (!parsed.success) {
    throw new InvalidInputError(
      "idempotency_key_invalid",
      "Idempotency-Key must be 1 to 255 printable ASCII characters",
    );
  }
  return parsed.data;
}

const jsonMediaType = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value: string) => value.split(";")[0]?.trim().toLowerCase()),
  ),
  z.literal("application/json"),
);

export function assertJsonContentType(value: string | undefined): void {
  if (!jsonMediaType.safeParse(value ?? "").success) {
    throw new InvalidInputError("unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
  }
}

/**
 * A route's JSON body: the content type, the size, then the schema, each refused with the
 * contract's error. With `emptyIs`, a request with no body at all reads as that value.
 */
export function readJsonBody<T>(
  event: Pick<APIGatewayProxyEvent, "body" | "isBase64Encoded" | "headers">,
  schema: z.ZodMiniType<T>,
  options: { emptyIs?: unknown } = {},
): T {
  const text = bodyText(event);
  if (text === "" && "emptyIs" in options) return parseJsonBody(JSON.stringify(options.emptyIs), schema);
  assertJsonContentType(header(event, "Content-Type"));
  return parseJsonBody(text, schema);
}
