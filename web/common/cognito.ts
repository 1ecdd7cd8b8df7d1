/**
 * The user pool's own API, called straight from the page with fetch: Cognito's JSON 1.1
 * protocol (one POST per operation, named in `X-Amz-Target`). These operations need no AWS
 * credentials: the password, the session or the token is the credential, so the page needs
 * no SDK for them.
 */

export interface IdentityConfig {
  /** Cognito's regional endpoint in AWS, the local identity endpoint on a developer's machine. */
  endpoint: string;
  clientId: string;
}

export interface AuthenticationResult {
  AccessToken: string;
  /** Seconds the access token lives. */
  ExpiresIn: number;
  /** Only from a password sign-in: a refresh answers without a new one. */
  RefreshToken?: string;
}

/** Either tokens, or the next step the pool asks for with the session to answer it in. */
export interface AuthResponse {
  AuthenticationResult?: AuthenticationResult;
  ChallengeName?: string;
  Session?: string;
  ChallengeParameters?: Record<string, string>;
}

/** What Cognito refused, with a message a person can act on. */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = "CognitoError";
  }
}

/** Cognito's own messages are mostly readable; these say what to do instead. */
const MESSAGES: Record<string, string> = {
  UserNotFoundException: "Incorrect username or password.",
  CodeMismatchException: "That code is not right. Enter the current code from your authenticator app.",
  EnableSoftwareTokenMFAException: "That code is not right. Enter the current code from your authenticator app.",
  ExpiredCodeException: "That code has already been used or has expired. Wait for the next code.",
  PasswordResetRequiredException: "Your password must be reset. Ask an administrator.",
  UserNotConfirmedException: "This account is not confirmed. Ask an administrator.",
  TooManyRequestsException: "Too many attempts. Wait a minute, then try again.",
  TooManyFailedAttemptsException: "Too many attempts. Wait a minute, then try again.",
  LimitExceededException: "Too many attempts. Wait a minute, then try again.",
};

function readableError(type: string, message: string | undefined): string {
  const known = MESSAGES[type];
  if (known) return known;
  if (type === "InvalidPasswordException") return `The new password is not allowed: ${message ?? "see the policy"}`;
  return message || `Sign-in failed (${type}).`;
}

async function call<T>(identity: IdentityConfig, operation: string, body: object): Promise<T> {
  let response: Response;
  try {
    response = await fetch(identity.endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": `AWSCognitoIdentityProviderService.${operation}`,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
  } catch {
    throw new CognitoError(
      "NetworkError",
      "The sign-in service could not be reached. Check the connection and try again.",
    );
  }
  const answer = (await response.json().catch(() => ({}))) as T & { __type?: string; message?: string };
  if (!response.ok) {
    // `__type` may carry a namespace (`...#NotAuthorizedException`); the name is the last part.
    const type = (answer.__type ?? "UnknownError").split("#").pop() ?? "UnknownError";
    throw new CognitoError(type, readableError(type, answer.message));
  }
  return answer;
}

export function signInWithPassword(identity: IdentityConfig, username: string, password: string) {
  return call<AuthResponse>(identity, "InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: identity.clientId,
    AuthParameters: { USERNAME: username, PASSWORD: password },
  });
}

export function refreshTokens(identity: IdentityConfig, refreshToken: string) {
  return call<AuthResponse>(identity, "InitiateAuth", {
    AuthFlow: "REFRESH_TOKEN_AUTH",
    ClientId: identity.clientId,
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });
}

export function answerChallenge(
  identity: IdentityConfig,
  challenge: string,
  session: string,
  responses: Record<string, string>,
) {
  return call<AuthResponse>(identity, "RespondToAuthChallenge", {
    ChallengeName: challenge,
    ClientId: identity.clientId,
    Session: session,
    ChallengeResponses: responses,
  });
}

/** The first step of setting up TOTP: the secret for the authenticator app, and a new session. */
export function associateSoftwareToken(identity: IdentityConfig, session: string) {
  return call<{ SecretCode: string; Session: string }>(identity, "AssociateSoftwareToken", { Session: session });
}

/** The second step: a code from the app proves it holds the secret. */
export function verifySoftwareToken(identity: IdentityConfig, session: string, code: string, deviceName: string) {
  return call<{ Status: "SUCCESS" | "ERROR"; Session: string }>(identity, "VerifySoftwareToken", {
    Session: session,
    UserCode: code,
    FriendlyDeviceName: deviceName,
  });
}
