import type { Environment } from "../domain/environments.ts";
import type { StaffGroup } from "../domain/staff.ts";
import {
  BACKOFFICE_GATEWAY_RESPONSES,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
} from "./gateway-responses.ts";

/**
 * The routes of each API and the functions they reach. The local gateway serves exactly these
 * routes and the CDK stack wires exactly these, so the two cannot drift.
 */
export interface RouteDefinition {
  method: "GET" | "POST";
  /** Path template; `{name}` is a path parameter, as API Gateway writes it. */
  path: string;
  function:
    | "create-verification"
    | "confirm-upload"
    | "get-verification"
    | "backoffice-console"
    | "list-reviews"
    | "claim-review"
    | "decide-review"
    | "inspect-verification"
    | "view-document"
    | "read-audit";
  /** The staff groups whose token may call it (a TOKEN authorizer's API); any one suffices. */
  groups?: readonly StaffGroup[];
  /** `none`: the gateway calls the function with no authorizer (the console's own files). */
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

export interface ApiDefinition {
  /** Names the REST API, its construct and its base URL output. */
  id: string;
  description: string;
  routes: readonly RouteDefinition[];
  authorizer: {
    function: "authorizer" | "staff-authorizer";
    type: "REQUEST" | "TOKEN";
    identityHeader: string;
    cacheTtlSeconds: number;
  };
  gatewayResponses: Record<string, GatewayResponseDefinition>;
}

/** Each REST API of an environment, with its own base URL and its own credential. */
export const APIS = {
  public: {
    id: "Api",
    description: "Document verification API",
    routes: ROUTES,
    authorizer: AUTHORIZER,
    gatewayResponses: GATEWAY_RESPONSES,
  },
  backoffice: {
    id: "BackofficeApi",
    description: "Backoffice: the review console and the staff API",
    routes: BACKOFFICE_ROUTES,
    authorizer: STAFF_AUTHORIZER,
    gatewayResponses: BACKOFFICE_GATEWAY_RESPONSES,
  },
} as const satisfies Record<string, ApiDefinition>;
export type ApiName = keyof typeof APIS;

/** Largest request body API Gateway itself accepts (REST APIs: 10 MB). */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The contract's request rate per environment: API Gateway's stage throttling, and the local gateway's. */
export const STAGE_THROTTLING: Record<Environment, { rateLimit: number; burstLimit: number }> = {
  sandbox: { rateLimit: 25, burstLimit: 50 },
  production: { rateLimit: 100, burstLimit: 200 },
};
