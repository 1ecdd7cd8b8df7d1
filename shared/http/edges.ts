/**
 * The request edges every route refuses before any of its work, in AWS and locally alike: a
 * credential or idempotency header sent twice, an encoded body, a body over the limit, a body
 * that is not UTF-8. Each is the contract's problem; nothing is read or stored.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import { InvalidInputError } from "../domain/errors.ts";

/** The largest request body of any route, in bytes. */
export const MAX_BODY_BYTES = 16 * 1024;

/** Headers that may come once: two values would leave which one counts to chance. */
export const SINGLE_HEADERS = ["X-API-Key", "Idempotency-Key"] as const;

type EdgeEvent = Pick<APIGatewayProxyEvent, "body" | "isBase64Encoded" | "headers" | "multiValueHeaders">;

/** Every value of a header, in whatever spellings of its name the client used. */
function valuesOf(event: EdgeEvent, name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === wanted) values.push(...(list ?? []));
  }
  if (values.length > 0) return values;
  const single = Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
  return single === undefined ? [] : [single];
}

/** The body's bytes as the client sent them. */
function bodyBytes(event: EdgeEvent): Buffer {
  if (event.body === null || event.body === undefined) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, "base64") : Buffer.from(event.body, "utf8");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Throws the contract's problem for the first edge the request crosses; returns when it crosses none. */
export function refuseEdges(event: EdgeEvent): void {
  for (const name of SINGLE_HEADERS) {
    if (valuesOf(event, name).length > 1) {
      throw new InvalidInputError("duplicate_header", `Send the ${name} header once`);
    }
  }
  const encodings = valuesOf(event, "Content-Encoding").filter((value) => value.trim().toLowerCase() !== "identity");
  if (encodings.length > 0) {
    throw new InvalidInputError("unsupported_media_type", "Send the body unencoded: no Content-Encoding is accepted");
  }
  const bytes = bodyBytes(event);
  if (bytes.length > MAX_BODY_BYTES) {
    throw new InvalidInputError("payload_too_large", `The request body must be at most ${MAX_BODY_BYTES} bytes`);
  }
  try {
    strictUtf8.decode(bytes);
  } catch {
    throw new InvalidInputError("malformed_json", "The request body is not valid UTF-8");
  }
}
