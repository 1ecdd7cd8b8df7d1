import type { AccessTokenVerifier, Principal } from "../../ports/identity.ts";

/** A route as the authorizer sees it: its method, its path template, and the groups that may call it. */
export interface GuardedRoute {
  method: string;
  path: string;
  groups?: readonly string[];
}

export type StaffAuthorization =
  | { outcome: "unauthorized" }
  /** A live staff token; `routes` are those its groups allow (none for a user in no group). */
  | { outcome: "allow"; principal: Principal; routes: GuardedRoute[] };

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

/**
 * Decides what a bearer token may do: the routes the user's groups allow, all at once,
 * because the gateway caches the answer by token for every route.
 */
export async function authorizeStaff(
  deps: { tokens: AccessTokenVerifier },
  authorization: string | undefined,
  routes: readonly GuardedRoute[],
): Promise<StaffAuthorization> {
  const token = BEARER.exec(authorization ?? "")?.[1];
  if (!token) return { outcome: "unauthorized" };
  const principal = await deps.tokens.verify(token);
  if (!principal) return { outcome: "unauthorized" };
  const allowed = routes.filter((route) => route.groups?.some((group) => principal.groups.includes(group)));
  return { outcome: "allow", principal, routes: allowed };
}
