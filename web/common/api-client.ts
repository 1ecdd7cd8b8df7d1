/**
 * An API of the service called with the session's bearer token, through `openapi-fetch` over the
 * paths generated from the API's document (each page's `schema.ts`), so a path, a method, a
 * parameter or a body the document does not have fails to compile. A page lives at its API's
 * `/<page>/`, so its API's root is the page's parent folder (`..`): a page works under any stage
 * or domain without knowing it.
 */
import createClient, { type Client } from "openapi-fetch";
import { ApiError, problemOf } from "./problem.ts";
import { type Session, SignedOutError } from "./session.ts";

/** The API's root as a page finds it: the parent of the folder it is served from. */
export const PAGE_API_ROOT = "..";

/** What the client needs of the signed-in session. */
export type SessionTokens = Pick<Session, "accessToken" | "renew" | "end">;

export class BearerClient<Paths extends {}> {
  /** Every route of the API, typed by its document; a refusal is thrown as an ApiError. */
  readonly api: Client<Paths, "application/json">;

  /** `onSignedOut` runs when the API no longer accepts the session, after one renewal was tried. */
  constructor(
    private readonly session: SessionTokens,
    private readonly onSignedOut: () => void,
    /** The API as the page names it in messages: "backoffice", "portal". */
    private readonly apiName: string,
    /** Where the API's paths start: the page's `PAGE_API_ROOT`, or an absolute URL. */
    baseUrl: string = PAGE_API_ROOT,
  ) {
    this.api = createClient<Paths, "application/json">({
      baseUrl,
      headers: { Accept: "application/json" },
      // Nothing for the browser to keep: every answer is about now.
      cache: "no-store",
      fetch: (request) => this.#answer(request),
    });
  }

  /** The body of an answer `call` was given (a refusal was thrown before it got here). */
  async body<Data>(call: Promise<{ data?: Data; response: Response }>): Promise<Data> {
    const { data, response } = await call;
    if (data === undefined) {
      throw new ApiError(response.status, "unexpected", `The ${this.apiName} answered ${response.status}. Try again.`);
    }
    return data;
  }

  /** The answer to `request`, renewed once on a 401; a refusal as an ApiError from its problem+json. */
  async #answer(request: Request): Promise<Response> {
    // Kept unread, for the one attempt after a renewal.
    const again = request.clone();
    let response = await this.#send(request);
    if (response.status === 401) {
      // The token may have been renewed elsewhere or revoked: renew once, then give up.
      await this.session.renew().catch(() => undefined);
      response = await this.#send(again);
    }
    if (response.status === 401) {
      this.session.end();
      this.onSignedOut();
      throw new ApiError(401, "invalid_token", "Your session has ended. Sign in again.");
    }
    if (!response.ok) throw await problemOf(response, this.apiName);
    return response;
  }

  async #send(request: Request): Promise<Response> {
    let token: string;
    try {
      token = await this.session.accessToken();
    } catch (error) {
      if (error instanceof SignedOutError) this.onSignedOut();
      throw new ApiError(401, "invalid_token", "Your session has ended. Sign in again.");
    }
    const headers = new Headers(request.headers);
    headers.set("Authorization", `Bearer ${token}`);
    try {
      return await fetch(new Request(request, { headers, signal: AbortSignal.timeout(30_000) }));
    } catch {
      throw new ApiError(0, "network", `The ${this.apiName} could not be reached. Check the connection and try again.`);
    }
  }
}
