import type { AccessTokenVerifier, Principal } from "../../ports/identity.ts";
import { bearerPrincipal, type GuardedRoute, routesFor } from "../authorize-bearer.ts";

export type StaffAuthorization =
  | { outcome: "unauthorized" }
  /** A live staff token; `routes` are those its groups allow (none for a user in no group). */
  | { outcome: "allow"; principal: Principal; routes: GuardedRoute[] };

/**
 * Decides what a bearer token may do: the routes the user's groups allow, all at once,
 * because the gateway caches the answer by token for every route.
 */
export async function authorizeStaff(
  deps: { tokens: AccessTokenVerifier },
  authorization: string | undefined,
  routes: readonly GuardedRoute[],
): Promise<StaffAuthorization> {
  const principal = await bearerPrincipal(deps.tokens, authorization);
  if (!principal) return { outcome: "unauthorized" };
  return { outcome: "allow", principal, routes: routesFor(routes, principal.groups) };
}
