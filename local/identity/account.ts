/**
 * The calls a user makes about their own account: GetUser with an access token, and setting up
 * TOTP, either during sign-in (with the MFA_SETUP challenge's `Session`) or once signed in
 * (with an access token).
 */
import { z } from "zod";
import { fields, type IdentityContext, parseInput, poolById } from "./context.ts";
import { CognitoError, invalidParameter, notAuthorized } from "./errors.ts";
import { closeSession, openSession, sessionOf } from "./sessions.ts";
import { attributeList, type StoredUser, userNamed } from "./store.ts";
import { userOfAccessToken } from "./tokens.ts";
import { newTotpSecret, totpMatches } from "./totp.ts";

const getUserInput = z.strictObject({ AccessToken: fields.accessToken });

export async function getUser(context: IdentityContext, input: unknown) {
  const { user } = await userOfAccessToken(context, parseInput(getUserInput, input).AccessToken);
  return {
    Username: user.username,
    UserAttributes: attributeList(user),
    ...(user.totpSecret
      ? { PreferredMfaSetting: "SOFTWARE_TOKEN_MFA", UserMFASettingList: ["SOFTWARE_TOKEN_MFA"] }
      : {}),
  };
}

/** Exactly one of the two ways to say who is setting TOTP up. */
const who = { AccessToken: fields.accessToken.optional(), Session: fields.session.optional() };
function oneOf(input: { AccessToken?: string; Session?: string }) {
  if ((input.AccessToken === undefined) === (input.Session === undefined)) {
    throw invalidParameter("Exactly one of AccessToken and Session must be given.");
  }
}

function userOfSession(context: IdentityContext, session: { poolId: string; username: string }): StoredUser {
  const user = userNamed(poolById(context, session.poolId).data, session.username);
  if (!user) throw notAuthorized("Invalid session for the user.");
  return user;
}

const associateInput = z.strictObject(who);

export async function associateSoftwareToken(context: IdentityContext, input: unknown) {
  const parsed = parseInput(associateInput, input);
  oneOf(parsed);
  const SecretCode = newTotpSecret();
  if (parsed.AccessToken) {
    const { user } = await userOfAccessToken(context, parsed.AccessToken);
    user.pendingTotpSecret = SecretCode;
    context.store.save();
    return { SecretCode };
  }
  const id = String(parsed.Session);
  const session = sessionOf(context, id, "MFA_SETUP");
  closeSession(context, id);
  return { SecretCode, Session: openSession(context, { ...session, secret: SecretCode, verified: false }) };
}

const verifyInput = z.strictObject({
  ...who,
  UserCode: z.string().regex(/^[0-9]{6}$/),
  FriendlyDeviceName: z.string().max(131072).optional(),
});

const codeMismatch = () =>
  new CognitoError("EnableSoftwareTokenMFAException", "Code mismatch and fail enable Software Token MFA mfa");

/** A code of the secret proves the app holds it: from now on the user's sign-ins ask for a code. */
export async function verifySoftwareToken(context: IdentityContext, input: unknown) {
  const parsed = parseInput(verifyInput, input);
  oneOf(parsed);
  const now = context.now();
  if (parsed.AccessToken) {
    const { user } = await userOfAccessToken(context, parsed.AccessToken);
    const secret = user.pendingTotpSecret;
    if (!secret) throw invalidParameter("AssociateSoftwareToken must be called first.");
    if (!totpMatches(secret, parsed.UserCode, now)) throw codeMismatch();
    Object.assign(user, { totpSecret: secret, pendingTotpSecret: undefined, modifiedAt: now });
    context.store.save();
    return { Status: "SUCCESS" };
  }
  const id = String(parsed.Session);
  const session = sessionOf(context, id, "MFA_SETUP");
  if (!session.secret) throw invalidParameter("AssociateSoftwareToken must be called first.");
  if (!totpMatches(session.secret, parsed.UserCode, now)) throw codeMismatch();
  const user = userOfSession(context, session);
  Object.assign(user, { totpSecret: session.secret, modifiedAt: now });
  context.store.save();
  closeSession(context, id);
  return { Status: "SUCCESS", Session: openSession(context, { ...session, verified: true }) };
}
