/**
 * The signed-in user's tokens. They live in this object only: never in localStorage,
 * sessionStorage or a cookie, so a reload or a closed tab signs out, and nothing on disk or
 * sent by the browser on its own can be replayed. The access token is renewed with the
 * refresh token before it expires.
 */
import { type AuthenticationResult, CognitoError, type IdentityConfig, refreshTokens } from "./cognito.ts";

/** Renew this long before the access token expires, so a request never carries a stale one. */
const RENEW_BEFORE_MS = 5 * 60_000;
/** A request within this of expiry renews first. */
const MIN_VALIDITY_MS = 60_000;
/** When renewing failed for a reason that may pass (the network), try again after this. */
const RETRY_MS = 30_000;

/**
 * The claims of the access token the page uses: the name it shows and the groups that decide what
 * it offers. The API verifies the token and is the guard; the page only reads it.
 */
function claimsOf(token: string): { username: string; groups: string[] } {
  const payload = token.split(".")[1] ?? "";
  const base64 = payload.replaceAll("-", "+").replaceAll("_", "/");
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
  const claims = JSON.parse(new TextDecoder().decode(bytes)) as { username?: unknown; "cognito:groups"?: unknown };
  const groups = claims["cognito:groups"];
  return {
    username: typeof claims.username === "string" ? claims.username : "",
    groups: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === "string") : [],
  };
}

export class SignedOutError extends Error {
  constructor() {
    super("Signed out");
    this.name = "SignedOutError";
  }
}

export class Session {
  #accessToken: string | undefined;
  #refreshToken: string | undefined;
  #expiresAt = 0;
  #timer: number | undefined;
  #renewing: Promise<void> | undefined;
  /** The signed-in user's name, as claims name the claim holder. */
  username = "";
  /** The signed-in user's groups (`cognito:groups`): none for a user in no group. */
  groups: readonly string[] = [];

  /** `onLost` hears why the session ended when renewing was refused. */
  constructor(
    private readonly identity: IdentityConfig,
    private readonly onLost: (message: string) => void,
  ) {}

  get signedIn(): boolean {
    return this.#accessToken !== undefined;
  }

  /** Starts the session with the tokens of a completed sign-in. */
  begin(result: AuthenticationResult): void {
    this.#refreshToken = result.RefreshToken;
    this.#accept(result);
  }

  /** A live access token, renewed first when it is about to expire. */
  async accessToken(): Promise<string> {
    if (this.#accessToken !== undefined && Date.now() > this.#expiresAt - MIN_VALIDITY_MS) await this.renew();
    if (this.#accessToken === undefined) throw new SignedOutError();
    return this.#accessToken;
  }

  /** Renews the access token now; concurrent callers share one request. */
  renew(): Promise<void> {
    this.#renewing ??= this.#renew().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  /** Forgets every token. */
  end(): void {
    window.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#accessToken = undefined;
    this.#refreshToken = undefined;
    this.#expiresAt = 0;
    this.username = "";
    this.groups = [];
  }

  async #renew(): Promise<void> {
    try {
      if (this.#refreshToken === undefined) throw new CognitoError("NoRefreshToken", "The session has expired.");
      const answer = await refreshTokens(this.identity, this.#refreshToken);
      if (!answer.AuthenticationResult)
        throw new CognitoError("UnexpectedChallenge", "The session could not be renewed.");
      this.#accept(answer.AuthenticationResult);
    } catch (error) {
      const passing =
        error instanceof CognitoError && ["NetworkError", "TooManyRequestsException"].includes(error.type);
      if (passing && Date.now() < this.#expiresAt) {
        this.#schedule(RETRY_MS);
        return;
      }
      this.end();
      const reason = error instanceof CognitoError ? error.message : "The session could not be renewed.";
      this.onLost(`You have been signed out (${reason.replace(/\.$/, "")}). Sign in again.`);
      throw new SignedOutError();
    }
  }

  #accept(result: AuthenticationResult): void {
    this.#accessToken = result.AccessToken;
    this.#expiresAt = Date.now() + result.ExpiresIn * 1000;
    ({ username: this.username, groups: this.groups } = claimsOf(result.AccessToken));
    this.#schedule(Math.max(10_000, result.ExpiresIn * 1000 - RENEW_BEFORE_MS));
  }

  #schedule(delayMs: number): void {
    window.clearTimeout(this.#timer);
    // A failed renewal has already told the user; the timer has no one else to tell.
    this.#timer = window.setTimeout(() => this.renew().catch(() => undefined), delayMs);
  }
}
