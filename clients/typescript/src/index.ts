/**
 * The document verification API's TypeScript client: typed calls for every public route (types
 * generated from `openapi.json` into `schema.ts`), retries that are safe (one Idempotency-Key per
 * create, kept across its own retries; `Retry-After` honoured), problem+json errors as typed
 * exceptions, the upload done as instructed, and webhook verification in one call.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";
export { verifyWebhook, type WebhookEvent, type WebhookEventType, WebhookVerificationError } from "./webhooks.js";

export type Verification = components["schemas"]["Verification"];
export type ListedVerification = components["schemas"]["ListedVerification"];
export type CreateVerificationRequest = components["schemas"]["CreateVerificationRequest"];
export type Problem = components["schemas"]["Problem"];
export type ProblemCode = Problem["code"];

/** A problem+json answer from the API, or the service's own refusal before a route ran. */
export class ProblemError extends Error {
  override readonly name = "ProblemError";
  readonly status: number;
  readonly code: ProblemCode;
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), when it did. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly problem: Problem,
    response: Response,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.status = problem.status;
    this.code = problem.code;
    this.requestId = problem.request_id ?? response.headers.get("Request-Id") ?? undefined;
    this.retryAfterSeconds = retryAfter(response);
  }
}

/**
 * The upload was refused: by storage (`status` its HTTP status, `storageCode` S3's own code:
 * `SignatureDoesNotMatch`, `AccessDenied`, `EntityTooLarge`, ...), or before it was sent, when
 * the document's size is not the one the URL signs (both undefined). The message names the
 * likely cause and the fix.
 */
export class UploadError extends Error {
  override readonly name = "UploadError";

  constructor(
    readonly status: number | undefined,
    readonly storageCode: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** `waitForResult` gave up: `verification` is the state last read (`in_review` waits for a person). */
export class WaitTimeoutError extends Error {
  override readonly name = "WaitTimeoutError";

  constructor(
    readonly verification: Verification,
    timeoutMs: number,
  ) {
    super(`${verification.verification_id} is still ${verification.status} after ${timeoutMs} ms`);
  }
}

/** The states a verification never leaves. */
export const TERMINAL_STATUSES: readonly Verification["status"][] = ["completed", "failed", "expired"];

export interface WaitOptions {
  /** How long to keep asking before throwing a WaitTimeoutError (default 120,000 ms). */
  timeoutMs?: number;
}

export interface ClientOptions {
  /** The API's base URL, e.g. `https://api.example.com` or `http://127.0.0.1:3000` locally. */
  baseUrl: string;
  apiKey: string;
  /** Attempts per call after the first, for answers worth retrying (default 3). */
  retries?: number;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
  /** How to wait between attempts (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

/** Answers worth the same request again: in progress, rate limited, the service busy or failing. */
const RETRIED_CODES = new Set<ProblemCode>([
  "idempotency_request_in_progress",
  "rate_limited",
  "service_unavailable",
  "internal_error",
]);
const MAX_WAIT_MS = 20_000;

function retryAfter(response: Response): number | undefined {
  const value = response.headers.get("Retry-After");
  if (value === null) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** What to wait before attempt `attempt` (1-based): the service's `Retry-After`, or a jittered backoff. */
function waitMs(attempt: number, error: unknown): number {
  if (error instanceof ProblemError && error.retryAfterSeconds !== undefined) {
    return Math.min(MAX_WAIT_MS, error.retryAfterSeconds * 1000);
  }
  const ceiling = Math.min(MAX_WAIT_MS, 250 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function retriable(error: unknown): boolean {
  if (error instanceof ProblemError) return RETRIED_CODES.has(error.code);
  // fetch's own failure: the connection, not an answer.
  return error instanceof TypeError;
}

/** S3's `<Code>` and `<Message>` from its XML error body, when it has them. */
function storageError(body: string): { code?: string; message?: string } {
  return {
    code: /<Code>([^<]*)<\/Code>/.exec(body)?.[1],
    message: /<Message>([^<]*)<\/Message>/.exec(body)?.[1],
  };
}

function wrongSize(sentBytes: number, signedBytes: number): string {
  return `the document is ${sentBytes} bytes, and the URL is signed for ${signedBytes} (the file_size_bytes of the create): create a verification with the file's real size`;
}

/** What storage's refusal of an upload most likely means, and what to do about it. */
function uploadRefusal(
  status: number,
  body: string,
  upload: NonNullable<Verification["upload"]>,
  sentBytes: number,
): UploadError {
  const { code, message } = storageError(body);
  const signedBytes = Number(upload.headers["Content-Length"]);
  const refused = `The upload was refused with ${status}${code ? ` ${code}` : ""}`;
  if (code === "SignatureDoesNotMatch") {
    const cause =
      sentBytes !== signedBytes
        ? wrongSize(sentBytes, signedBytes)
        : `the request's Content-Type or Content-Length differs from what the URL signs (Content-Type: ${upload.headers["Content-Type"]}, Content-Length: ${signedBytes}): send upload.headers exactly, and nothing that changes them`;
    return new UploadError(status, code, `${refused}: ${cause}`);
  }
  if (code === "AccessDenied" && /expired/i.test(message ?? "")) {
    return new UploadError(
      status,
      code,
      `${refused} (${message}): the URL expired at ${upload.expires_at}; fetch the verification for a fresh one and upload again`,
    );
  }
  if (code === "EntityTooLarge") {
    return new UploadError(status, code, `${refused}: the document is larger than storage accepts (10 MiB at most)`);
  }
  return new UploadError(
    status,
    code,
    `${refused}${message ? ` (${message})` : ""}: fetch the verification for a fresh URL and upload again`,
  );
}

/** The body of an answered call, or its problem as a ProblemError. */
function settle<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  const problem = result.error as Problem | undefined;
  if (problem && typeof problem === "object" && typeof problem.code === "string") {
    throw new ProblemError(problem, result.response);
  }
  // No problem body: an answer from something in between (a proxy, a load balancer). A 5xx is the
  // service failing and worth a retry; anything else is not the API's answer at all.
  if (result.response.status < 500) {
    throw new Error(`The API's address answered ${result.response.status} without a problem body: check baseUrl`);
  }
  throw new ProblemError(
    {
      type: "about:blank",
      title: result.response.statusText,
      status: result.response.status,
      detail: `The API answered ${result.response.status} without a problem body`,
      code: "internal_error",
      request_id: result.response.headers.get("Request-Id") ?? "",
    },
    result.response,
  );
}

export interface VerificationClient {
  /** Every public route, typed by the OpenAPI document, for calls the helpers below do not cover. */
  readonly api: Client<paths>;
  /**
   * Creates a verification. One Idempotency-Key (yours, or a new one) is sent on every attempt,
   * so a retry after a lost answer never makes a second verification.
   */
  createVerification(
    body: CreateVerificationRequest,
    options?: { idempotencyKey?: string },
  ): Promise<{ verification: Verification; replayed: boolean; idempotencyKey: string }>;
  /**
   * PUTs the document to the verification's upload URL with the headers it was signed with. A
   * refusal by storage throws an UploadError naming the likely cause (another size than the
   * create's `file_size_bytes`, headers not sent as given, an expired URL).
   */
  upload(verification: Verification, document: Blob | ArrayBuffer | Uint8Array): Promise<void>;
  /** Tells the service the upload is complete; a repeat answers the current state. */
  confirmUpload(verificationId: string): Promise<Verification>;
  getVerification(verificationId: string): Promise<Verification>;
  /**
   * Reads the verification until it is `completed`, `failed` or `expired`, asking again with a
   * growing pause (0.5 s, then half as long again each time, at most 5 s), and answers it. Throws
   * a WaitTimeoutError after `timeoutMs`, holding the state last read.
   */
  waitForResult(verificationId: string, options?: WaitOptions): Promise<Verification>;
  /** Erases the verification's document and personal data; a repeat answers the same erased verification. */
  eraseVerification(verificationId: string): Promise<Verification>;
  listVerifications(
    query?: NonNullable<paths["/v1/verifications"]["get"]["parameters"]["query"]>,
  ): Promise<components["schemas"]["VerificationPage"]>;
}

export function createClient(options: ClientOptions): VerificationClient {
  const retries = options.retries ?? 3;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { "X-API-Key": options.apiKey },
    fetch: (request) => fetchImpl(request),
  });

  /** Runs `call` again while its failure is worth retrying and attempts remain. */
  async function attempt<T>(call: () => Promise<T>): Promise<T> {
    for (let tried = 0; ; tried++) {
      try {
        return await call();
      } catch (error) {
        if (tried >= retries || !retriable(error)) throw error;
        await sleep(waitMs(tried + 1, error));
      }
    }
  }

  const getVerification = (verificationId: string): Promise<Verification> =>
    attempt(async () =>
      settle(
        await api.GET("/v1/verifications/{verification_id}", {
          params: { path: { verification_id: verificationId } },
        }),
      ),
    );

  return {
    api,
    async createVerification(body, { idempotencyKey = globalThis.crypto.randomUUID() } = {}) {
      return attempt(async () => {
        const result = await api.POST("/v1/verifications", {
          params: { header: { "Idempotency-Key": idempotencyKey } },
          body,
        });
        const verification = settle(result);
        return {
          verification,
          replayed: result.response.headers.get("Idempotent-Replayed") === "true",
          idempotencyKey,
        };
      });
    },
    async upload(verification, document) {
      const { upload } = verification;
      if (!upload) throw new Error(`Verification ${verification.verification_id} is not awaiting its upload`);
      const body = document instanceof Uint8Array ? new Blob([new Uint8Array(document)]) : document;
      const sentBytes = body instanceof Blob ? body.size : body.byteLength;
      // Storage would refuse it (SignatureDoesNotMatch), and fetch will not even send it.
      const signedBytes = Number(upload.headers["Content-Length"]);
      if (sentBytes !== signedBytes) {
        throw new UploadError(undefined, undefined, `The upload was not sent: ${wrongSize(sentBytes, signedBytes)}`);
      }
      const response = await fetchImpl(upload.url, { method: upload.method, headers: upload.headers, body });
      const answer = await response.text();
      if (!response.ok) throw uploadRefusal(response.status, answer, upload, sentBytes);
    },
    confirmUpload: (verificationId) =>
      attempt(async () =>
        settle(
          await api.POST("/v1/verifications/{verification_id}/upload-complete", {
            params: { path: { verification_id: verificationId } },
          }),
        ),
      ),
    getVerification,
    async waitForResult(verificationId, { timeoutMs = 120_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (let pause = 500; ; pause = Math.min(5_000, pause * 1.5)) {
        const verification = await getVerification(verificationId);
        if (TERMINAL_STATUSES.includes(verification.status)) return verification;
        const left = deadline - Date.now();
        if (left <= 0) throw new WaitTimeoutError(verification, timeoutMs);
        await sleep(Math.min(pause, left));
      }
    },
    eraseVerification: (verificationId) =>
      attempt(async () =>
        settle(
          await api.DELETE("/v1/verifications/{verification_id}", {
            params: { path: { verification_id: verificationId } },
          }),
        ),
      ),
    listVerifications: (query = {}) =>
      attempt(async () => settle(await api.GET("/v1/verifications", { params: { query } }))),
  };
}
