/** What a TOKEN authorizer decides from: the live principal of a bearer token, and the routes its groups allow. */
import type { AccessTokenVerifier, Principal } from "../ports/identity.ts";

/** A route as the authorizer sees it: its method, its path template, and the groups that may call it. */
export interface GuardedRoute {
  method: string;
  path: string;
  groups?: readonly string[];
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

/** The principal of an `Authorization: Bearer` header's live access token, or undefined. */
export async function bearerPrincipal(
  tokens: AccessTokenVerifier,
  authorization: string | undefined,
): Promise<Principal | undefined> {
  const token = BEARER.exec(authorization ?? "")?.[1];
  return token ? tokens.verify(token) : undefined;
}

/** The routes any of `groups` may call. */
export function routesFor(routes: readonly GuardedRoute[], groups: readonly string[]): GuardedRoute[] {
  return routes.filter((route) => route.groups?.some((group) => groups.includes(group)));
}
