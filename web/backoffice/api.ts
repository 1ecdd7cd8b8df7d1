/**
 * The backoffice API, called with the session's bearer token. Paths are relative to the page
 * (`<base>/backoffice/`), so the console works under any stage or domain without knowing it.
 */
import { type Session, SignedOutError } from "./session.ts";
import type {
  ClaimResponse,
  DecisionBody,
  DocumentCopy,
  DocumentLink,
  Page,
  Problem,
  ReviewEntry,
  StaffVerification,
} from "./wire.ts";

/** What the API refused, by its problem+json: `code` to branch on, `detail` to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

async function problemOf(response: Response): Promise<ApiError> {
  const problem = (await response.json().catch(() => undefined)) as Partial<Problem> | undefined;
  if (problem && typeof problem.code === "string" && typeof problem.detail === "string") {
    const fields = (problem.errors ?? []).map((error) => `${error.field}: ${error.message}`);
    const reference = problem.request_id ? ` (request ${problem.request_id})` : "";
    const detail = fields.length > 1 ? `${problem.detail}: ${fields.join("; ")}` : problem.detail;
    return new ApiError(response.status, problem.code, `${detail}${reference}`);
  }
  return new ApiError(response.status, "unexpected", `The backoffice answered ${response.status}. Try again.`);
}

export class BackofficeApi {
  /** `onSignedOut` runs when the API no longer accepts the session, after one renewal was tried. */
  constructor(
    private readonly session: Session,
    private readonly onSignedOut: () => void,
  ) {}

  reviews(cursor: string | null): Promise<Page<ReviewEntry>> {
    const query = new URLSearchParams({ limit: "20", ...(cursor === null ? {} : { cursor }) });
    return this.#json("GET", `v1/reviews?${query}`);
  }

  verification(id: string): Promise<StaffVerification> {
    return this.#json("GET", `v1/verifications/${encodeURIComponent(id)}`);
  }

  /** A link to one copy, as JSON: a browser cannot read where a cross-origin redirect points. */
  document(id: string, copy: DocumentCopy): Promise<DocumentLink> {
    return this.#json("GET", `v1/verifications/${encodeURIComponent(id)}/document?copy=${copy}`);
  }

  claim(id: string): Promise<ClaimResponse> {
    return this.#json("POST", `v1/reviews/${encodeURIComponent(id)}/claim`);
  }

  /** Decides the review read at `sequence`: the API refuses it when the verification changed since. */
  decide(id: string, sequence: number, decision: DecisionBody): Promise<StaffVerification> {
    return this.#json("POST", `v1/reviews/${encodeURIComponent(id)}/decision`, {
      body: decision,
      headers: { "If-Match": `"${sequence}"` },
    });
  }

  async #json<T>(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    let response = await this.#send(method, path, options);
    if (response.status === 401) {
      // The token may have been renewed elsewhere or revoked: renew once, then give up.
      await this.session.renew().catch(() => undefined);
      response = await this.#send(method, path, options);
    }
    if (response.status === 401) {
      this.session.end();
      this.onSignedOut();
      throw new ApiError(401, "invalid_token", "Your session has ended. Sign in again.");
    }
    if (!response.ok) throw await problemOf(response);
    return (await response.json()) as T;
  }

  async #send(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> }) {
    let token: string;
    try {
      token = await this.session.accessToken();
    } catch (error) {
      if (error instanceof SignedOutError) this.onSignedOut();
      throw new ApiError(401, "invalid_token", "Your session has ended. Sign in again.");
    }
    try {
      return await fetch(path, {
        method,
        headers: {
          Accept: "application/json",
          Authorization: `Bearer ${token}`,
          ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...options.headers,
        },
        body: options.body === undefined ? null : JSON.stringify(options.body),
        // Nothing for the browser to keep: every answer is about now.
        cache: "no-store",
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new ApiError(0, "network", "The backoffice could not be reached. Check the connection and try again.");
    }
  }
}
