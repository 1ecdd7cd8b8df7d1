import type { Environment } from "../domain/environments.ts";
import { BACKOFFICE_ROUTES, STAFF_AUTHORIZER } from "./backoffice-api.ts";
import type { RouteDeclaration } from "./function-definition.ts";
import {
  BACKOFFICE_GATEWAY_RESPONSES,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  PORTAL_GATEWAY_RESPONSES,
} from "./gateway-responses.ts";
import { PORTAL_AUTHORIZER, PORTAL_ROUTES } from "./portal-api.ts";
import { AUTHORIZER, ROUTES } from "./public-api.ts";

/**
 * The APIs: each one's routes and authorizer (from its functions' declarations, `public-api.ts`,
 * `backoffice-api.ts`, `portal-api.ts`), gateway responses and throttling. The local gateway and
 * the CDK stack both read these, so the two cannot drift.
 */

/** A route row of any API: the route and the function it reaches. */
export type RouteDefinition = RouteDeclaration & {
  function: (typeof ROUTES | typeof BACKOFFICE_ROUTES | typeof PORTAL_ROUTES)[number]["function"];
};

/** A token bucket: `burstLimit` requests at once, refilled at `rateLimit` a second. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * The contract's request rate, for each app on its own: its usage plan's throttle in API
 * Gateway (per usage identifier, which the authorizer returns), and the local gateway's.
 */
export const APP_THROTTLING: Record<Environment, Throttle> = {
  sandbox: { rateLimit: 25, burstLimit: 50 },
  production: { rateLimit: 100, burstLimit: 200 },
};

export interface ApiDefinition {
  /** Names the REST API, its construct and its base URL output. */
  id: string;
  description: string;
  routes: readonly RouteDefinition[];
  authorizer: {
    function: "authorizer" | "staff-authorizer" | "portal-authorizer";
    type: "REQUEST" | "TOKEN";
    identityHeader: string;
    cacheTtlSeconds: number;
  };
  gatewayResponses: Record<string, GatewayResponseDefinition>;
  /**
   * Where callers are apps: each app's own bucket, which its usage identifier (returned by the
   * authorizer) names. A request whose identifier has no bucket is refused (`INVALID_API_KEY`).
   */
  perApp?: Record<Environment, Throttle>;
}

/** Each REST API of an environment, with its own base URL and its own credential. */
export const APIS = {
  public: {
    id: "Api",
    description: "Document verification API",
    routes: ROUTES,
    authorizer: AUTHORIZER,
    gatewayResponses: GATEWAY_RESPONSES,
    perApp: APP_THROTTLING,
  },
  backoffice: {
    id: "BackofficeApi",
    description: "Backoffice: the review console and the staff API",
    routes: BACKOFFICE_ROUTES,
    authorizer: STAFF_AUTHORIZER,
    gatewayResponses: BACKOFFICE_GATEWAY_RESPONSES,
  },
  portal: {
    id: "PortalApi",
    description: "Customer portal: its page and the portal API",
    routes: PORTAL_ROUTES,
    authorizer: PORTAL_AUTHORIZER,
    gatewayResponses: PORTAL_GATEWAY_RESPONSES,
  },
} as const satisfies Record<string, ApiDefinition>;
export type ApiName = keyof typeof APIS;

/**
 * Each path of `routes` with the methods declared on it, in declaration order: what a request
 * with another method is told in `Allow` (405), by the stack's catch-all method and locally.
 */
export function methodsByPath(routes: readonly RouteDefinition[]): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  for (const route of routes) paths.set(route.path, [...(paths.get(route.path) ?? []), route.method]);
  return paths;
}

/** How many apps at their full rate a stage serves at once. */
export const APPS_AT_FULL_RATE = 10;

/**
 * What a stage lets through for every caller together: API Gateway's stage throttling and the
 * local gateway's. Ten apps' worth, so one app (held to its own rate) and a junk flood (held
 * by the web ACL to part of it) cannot use it all up.
 */
export const STAGE_THROTTLING: Record<Environment, Throttle> = {
  sandbox: {
    rateLimit: APP_THROTTLING.sandbox.rateLimit * APPS_AT_FULL_RATE,
    burstLimit: APP_THROTTLING.sandbox.burstLimit * APPS_AT_FULL_RATE,
  },
  production: {
    rateLimit: APP_THROTTLING.production.rateLimit * APPS_AT_FULL_RATE,
    burstLimit: APP_THROTTLING.production.burstLimit * APPS_AT_FULL_RATE,
  },
};
