/**
 * The issuer over the lookup contract (`../domain/issuer-lookup.ts`): each attempt limited to
 * 5 s, two retries with jitter after a timeout, a connection failure or a 5xx/429, and the
 * bearer secret asked for at each lookup (its source keeps it).
 */
import {
  ISSUER_LOOKUP_PATH,
  ISSUER_MAX_ANSWER_BYTES,
  ISSUER_RETRIES,
  ISSUER_TIMEOUT_MS,
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

type Attempt = IssuerAnswer | { kind: "retry" };

/** Reads at most `limit` bytes of a body; undefined when it is longer. */
async function boundedText(response: Response, limit: number): Promise<string | undefined> {
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
      return undefined;
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
  let response: Response;
  try {
    response = await fetch(new URL(ISSUER_LOOKUP_PATH, options.url), {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? ISSUER_TIMEOUT_MS),
    });
  } catch {
    return { kind: "retry" };
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel();
    return { kind: "retry" };
  }
  const text = await boundedText(response, ISSUER_MAX_ANSWER_BYTES).catch(() => undefined);
  if (text === undefined) return { kind: "unavailable" };
  const answer = parseJson(text);
  if (response.status === 200) {
    const found = issuerFoundSchema.safeParse(answer);
    if (found.success) {
      return {
        kind: "found",
        document: new Uint8Array(Buffer.from(found.data.document, "base64")),
        ...(found.data.issued_at ? { issuedAt: found.data.issued_at } : {}),
      };
    }
  }
  if (response.status === 404 && issuerNotFoundSchema.safeParse(answer).success) return { kind: "not_found" };
  // A refused secret, a redirect or an answer outside the contract: nothing a retry changes.
  return { kind: "unavailable" };
}

export function httpAuthority(options: HttpAuthorityOptions): Authority {
  const backoff = options.backoffMs ?? jitteredBackoff;
  return {
    async lookup(request: IssuerLookup): Promise<IssuerAnswer> {
      const bearer = await options.secret().catch(() => undefined);
      if (bearer === undefined) return { kind: "unavailable" };
      const body = JSON.stringify({
        document_type: request.documentType,
        barcode: request.barcode,
        identity_number: request.identityNumber,
      });
      for (let retry = 0; ; retry += 1) {
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, backoff(retry)));
        const answer = await attempt(options, bearer, body);
        if (answer.kind !== "retry") return answer;
        if (retry === ISSUER_RETRIES) return { kind: "unavailable" };
      }
    },
  };
}
