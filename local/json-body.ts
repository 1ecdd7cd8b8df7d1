import type { IncomingMessage } from "node:http";

/**
 * The JSON body of a request to a local AWS service; `fail` makes the service's own error for
 * a body over `maxBytes` or one that is not JSON.
 */
export async function jsonRequestBody(
  request: IncomingMessage,
  maxBytes: number,
  fail: (reason: "too_large" | "not_json") => Error,
): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw fail("too_large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  } catch {
    throw fail("not_json");
  }
}
