/**
 * An API of the service called with the session's bearer token. Paths are relative to the
 * page (`<base>/backoffice/`, `<base>/portal/`), so a page works under any stage or domain
 * without knowing it.
 */
import { ApiError, problemOf } from "./problem.ts";
import { type Session, SignedOutError } from "./session.ts";

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

export class BearerClient {
  /** `onSignedOut` runs when the API no longer accepts the session, after one renewal was tried. */
  constructor(
    private readonly session: Session,
    private readonly onSignedOut: () => void,
    /** The API as the page names it in messages: "backoffice", "portal". */
    private readonly apiName: string,
  ) {}

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
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
    if (!response.ok) throw await problemOf(response, this.apiName);
    return (await response.json()) as T;
  }

  async #send(method: string, path: string, options: RequestOptions): Promise<Response> {
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
      throw new ApiError(0, "network", `The ${this.apiName} could not be reached. Check the connection and try again.`);
    }
  }
}
