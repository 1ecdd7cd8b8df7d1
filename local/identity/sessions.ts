/**
 * The `Session` strings of challenges: opaque, single use, three minutes (Cognito's default).
 * Each step of a challenge answers a new one, so a session cannot be replayed past its step.
 */
import { randomBytes } from "node:crypto";
import type { ChallengeSession, IdentityContext } from "./context.ts";
import { notAuthorized } from "./errors.ts";

const SESSION_MS = 3 * 60_000;

export function openSession(context: IdentityContext, session: Omit<ChallengeSession, "expiresAt">): string {
  const now = context.now();
  for (const [id, open] of context.sessions) if (open.expiresAt <= now) context.sessions.delete(id);
  const id = randomBytes(96).toString("base64url");
  context.sessions.set(id, { ...session, expiresAt: now + SESSION_MS });
  return id;
}

/** The open session `id` of `challenge`; it stays open until `closeSession`, so a wrong code may be retried. */
export function sessionOf(
  context: IdentityContext,
  id: string,
  challenge: ChallengeSession["challenge"],
): ChallengeSession {
  const session = context.sessions.get(id);
  if (!session || session.expiresAt <= context.now() || session.challenge !== challenge) {
    throw notAuthorized("Invalid session for the user, session is expired.");
  }
  return session;
}

export function closeSession(context: IdentityContext, id: string): void {
  context.sessions.delete(id);
}
