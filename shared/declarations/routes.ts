import type { Environment } from "../domain/environments.ts";
import type { PortalRole } from "../domain/organizations.ts";
import type { StaffGroup } from "../domain/staff.ts";
import {
  BACKOFFICE_GATEWAY_RESPONSES,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  PORTAL_GATEWAY_RESPONSES,
} from "./gateway-responses.ts";

/**
 * The routes of each API and the functions they reach. The local gateway serves exactly these
 * routes and the CDK stack wires exactly these, so the two cannot drift.
 */
export interface RouteDefinition {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template; `{name}` is a path parameter, as API Gateway writes it. */
  path: string;
  function:
    | "create-verification"
    | "confirm-upload"
    | "get-verification"
    | "erase-verification"
    | "list-verifications"
    | "list-events"
    | "backoffice-console"
    | "list-reviews"
    | "claim-review"
    | "decide-review"
    | "inspect-verification"
    | "view-document"
    | "read-audit"
    | "portal-page"
    | "who-am-i"
    | "list-apps"
    | "create-app"
    | "rotate-key"
    | "revoke-key"
    | "rename-key"
    | "set-webhook"
    | "rotate-webhook-secret"
    | "test-webhook"
    | "list-deliveries"
    | "replay-event"
    | "list-app-events"
    | "send-event"
    | "search-verifications"
    | "lookup-verifications"
    | "view-verification"
    | "read-usage"
    | "list-members"
    | "invite-member"
    | "get-member"
    | "change-member-role"
    | "remove-member";
  /**
   * Who may call it on a TOKEN authorizer's API, any one sufficing: staff groups on the
   * backoffice, roles (with the weaker roles each one holds) on the portal.
   */
  groups?: readonly StaffGroup[] | readonly PortalRole[];
  /** `none`: the gateway calls the function with no authorizer (a web page's own files). */
  authorization?: "none";
}

export const ROUTES = [
  { method: "POST", path: "/v1/verifications", function: "create-verification" },
  {
    method: "POST",
    path: "/v1/verifications/{verification_id}/upload-complete",
    function: "confirm-upload",
  },
  { method: "GET", path: "/v1/verifications/{verification_id}", function: "get-verification" },
  { method: "DELETE", path: "/v1/verifications/{verification_id}", function: "erase-verification" },
  { method: "GET", path: "/v1/verifications", function: "list-verifications" },
  { method: "GET", path: "/v1/events", function: "list-events" },
] as const satisfies readonly RouteDefinition[];

/** The REQUEST authorizer in front of every public route. */
export const AUTHORIZER = {
  function: "authorizer",
  type: "REQUEST",
  identityHeader: "X-API-Key",
  cacheTtlSeconds: 300,
} as const;

const REVIEWERS = ["reviewers", "admins"] as const satisfies readonly StaffGroup[];

/**
 * The backoffice: the review console's files and the staff API. The console is the page
 * (`/backoffice/` is the same resource: API Gateway ignores a trailing slash) and its assets.
 */
export const BACKOFFICE_ROUTES = [
  { method: "GET", path: "/backoffice", function: "backoffice-console", authorization: "none" },
  { method: "GET", path: "/backoffice/assets/{file}", function: "backoffice-console", authorization: "none" },
  { method: "GET", path: "/backoffice/v1/reviews", function: "list-reviews", groups: REVIEWERS },
  {
    method: "POST",
    path: "/backoffice/v1/reviews/{verification_id}/claim",
    function: "claim-review",
    groups: REVIEWERS,
  },
  {
    method: "POST",
    path: "/backoffice/v1/reviews/{verification_id}/decision",
    function: "decide-review",
    groups: REVIEWERS,
  },
  {
    method: "GET",
    path: "/backoffice/v1/verifications/{verification_id}",
    function: "inspect-verification",
    groups: REVIEWERS,
  },
  {
    method: "GET",
    path: "/backoffice/v1/verifications/{verification_id}/document",
    function: "view-document",
    groups: REVIEWERS,
  },
  { method: "GET", path: "/backoffice/v1/audit", function: "read-audit", groups: ["admins"] },
] as const satisfies readonly RouteDefinition[];

/**
 * The TOKEN authorizer in front of every backoffice API route: a staff access token in
 * `Authorization: Bearer`. Cached briefly, so a disabled user is refused within a minute.
 */
export const STAFF_AUTHORIZER = {
  function: "staff-authorizer",
  type: "TOKEN",
  identityHeader: "Authorization",
  cacheTtlSeconds: 60,
} as const;

const VIEWERS = ["viewer"] as const satisfies readonly PortalRole[];
const DEVELOPERS = ["developer"] as const satisfies readonly PortalRole[];
const OWNERS = ["owner"] as const satisfies readonly PortalRole[];

/**
 * The customer portal: its page and the portal API. Every route answers for the caller's
 * organisation only; another organisation's app, key, event or verification is `404`.
 */
export const PORTAL_ROUTES = [
  { method: "GET", path: "/portal", function: "portal-page", authorization: "none" },
  { method: "GET", path: "/portal/assets/{file}", function: "portal-page", authorization: "none" },
  { method: "GET", path: "/portal/v1/me", function: "who-am-i", groups: VIEWERS },
  { method: "GET", path: "/portal/v1/apps", function: "list-apps", groups: VIEWERS },
  { method: "POST", path: "/portal/v1/apps", function: "create-app", groups: DEVELOPERS },
  { method: "POST", path: "/portal/v1/apps/{app_id}/keys", function: "rotate-key", groups: DEVELOPERS },
  { method: "DELETE", path: "/portal/v1/apps/{app_id}/keys/{key_id}", function: "revoke-key", groups: DEVELOPERS },
  { method: "PATCH", path: "/portal/v1/apps/{app_id}/keys/{key_id}", function: "rename-key", groups: DEVELOPERS },
  { method: "PUT", path: "/portal/v1/apps/{app_id}/webhook", function: "set-webhook", groups: DEVELOPERS },
  {
    method: "POST",
    path: "/portal/v1/apps/{app_id}/webhook/secret",
    function: "rotate-webhook-secret",
    groups: DEVELOPERS,
  },
  { method: "POST", path: "/portal/v1/apps/{app_id}/webhook/test", function: "test-webhook", groups: DEVELOPERS },
  { method: "GET", path: "/portal/v1/apps/{app_id}/deliveries", function: "list-deliveries", groups: VIEWERS },
  { method: "GET", path: "/portal/v1/apps/{app_id}/events", function: "list-app-events", groups: VIEWERS },
  { method: "POST", path: "/portal/v1/events/{event_id}/replay", function: "replay-event", groups: DEVELOPERS },
  { method: "POST", path: "/portal/v1/events/{event_id}/send", function: "send-event", groups: DEVELOPERS },
  { method: "GET", path: "/portal/v1/verifications", function: "search-verifications", groups: VIEWERS },
  { method: "GET", path: "/portal/v1/lookup", function: "lookup-verifications", groups: VIEWERS },
  {
    method: "GET",
    path: "/portal/v1/verifications/{verification_id}",
    function: "view-verification",
    groups: VIEWERS,
  },
  { method: "GET", path: "/portal/v1/usage", function: "read-usage", groups: VIEWERS },
  { method: "GET", path: "/portal/v1/users", function: "list-members", groups: OWNERS },
  { method: "POST", path: "/portal/v1/users", function: "invite-member", groups: OWNERS },
  { method: "GET", path: "/portal/v1/users/{username}", function: "get-member", groups: OWNERS },
  { method: "PATCH", path: "/portal/v1/users/{username}", function: "change-member-role", groups: OWNERS },
  { method: "DELETE", path: "/portal/v1/users/{username}", function: "remove-member", groups: OWNERS },
] as const satisfies readonly RouteDefinition[];

/** The TOKEN authorizer in front of every portal API route: a customer pool access token, and the caller's membership. */
export const PORTAL_AUTHORIZER = {
  function: "portal-authorizer",
  type: "TOKEN",
  identityHeader: "Authorization",
  cacheTtlSeconds: 60,
} as const;

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
