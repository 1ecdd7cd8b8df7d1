/**
 * The issuer over the lookup contract (`../domain/issuer-lookup.ts`): each attempt limited to
 * 5 s, two retries with jitter after a timeout, a connection failure or a 5xx/429, and the
 * bearer secret asked for at each lookup (its source keeps it). An unavailable answer names its
 * cause: the last attempt's after the retries, `unrecognised` for an answer outside the contract.
 */
import {
  ISSUER_LOOKUP_PATH,
  ISSUER_MAX_ANSWER_BYTES,
  ISSUER_RETRIES,
  ISSUER_TIMEOUT_MS,
  type IssuerLookupRequest,
  issuerFoundSchema,
  issuerNotFoundSchema,
} from "../domain/issuer-lookup.ts";
import type { Authority, IssuerAnswer, IssuerLookup } from "../ports/authority.ts";

export interface HttpAuthorityOptions {
  /** The integration's base URL, without the lookup path. */
  url: string;
  /** The bearer secret; a failure to get it makes the lookup unavailable. */
  secret: () => Promise<string>;
  timeoutMs?: number;
  /** Milliseconds before retry `n` (1-based); exponential with full jitter by default. */
  backoffMs?: (retry: number) => number;
}

const jitteredBackoff = (retry: number) => Math.random() * 250 * 2 ** retry;

/** An answer, or a failure worth another attempt and its cause. */
type Attempt = IssuerAnswer | { kind: "retry"; cause: "timeout" | "unreachable" | "http_error" };

/** An answer longer than any the contract gives. */
class TooLarge extends Error {}

/** Reads at most `limit` bytes of a body; throws `TooLarge` past it, and whatever the stream throws. */
async function boundedText(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new TooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function attempt(options: HttpAuthorityOptions, secret: string, body: string): Promise<Attempt> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? ISSUER_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(new URL(ISSUER_LOOKUP_PATH, options.url), {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body,
      redirect: "manual",
      signal,
    });
  } catch {
    return { kind: "retry", cause: signal.aborted ? "timeout" : "unreachable" };
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel();
    return { kind: "retry", cause: "http_error" };
  }
  let text: string;
  try {
    text = await boundedText(response, ISSUER_MAX_ANSWER_BYTES);
  } catch (error) {
    if (error instanceof TooLarge) return { kind: "unavailable", cause: "unrecognised" };
    return { kind: "retry", cause: signal.aborted ? "timeout" : "unreachable" };
  }
  const answer = parseJson(text);
  if (response.status === 200) {
    const found = issuerFoundSchema.safeParse(answer);
    if (found.success) return { kind: "found", document: new Uint8Array(Buffer.from(found.data.document, "base64")) };
  }
  if (response.status === 404 && issuerNotFoundSchema.safeParse(answer).success) return { kind: "not_found" };
  // A refused secret, a redirect or an answer outside the contract: nothing a retry changes.
  return { kind: "unavailable", cause: "unrecognised" };
}

export function httpAuthority(options: HttpAuthorityOptions): Authority {
  const backoff = options.backoffMs ?? jitteredBackoff;
  return {
    async lookup(request: IssuerLookup): Promise<IssuerAnswer> {
      // The secret's store could not be reached: as if the issuer could not be.
      const bearer = await options.secret().catch(() => undefined);
      if (bearer === undefined) return { kind: "unavailable", cause: "unreachable" };
      const body = JSON.stringify({
        document_type: request.documentType,
        barcode: request.barcode,
        identity_number: request.identityNumber,
      } satisfies IssuerLookupRequest);
      for (let retry = 0; ; retry += 1) {
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, backoff(retry)));
        const answer = await attempt(options, bearer, body);
        if (answer.kind !== "retry") return answer;
        if (retry === ISSUER_RETRIES) return { kind: "unavailable", cause: answer.cause };
      }
    },
  };
}
