import type { Environment } from "../domain/environments.ts";

/**
 * The routes and the functions they reach. The local gateway serves exactly these routes and
 * the CDK stack wires exactly these, so the two cannot drift.
 */
export interface RouteDefinition {
  method: "GET" | "POST";
  /** Path template; `{name}` is a path parameter, as API Gateway writes it. */
  path: string;
  function: "create-verification" | "confirm-upload" | "get-verification";
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

/** The REQUEST authorizer in front of every route. */
export const AUTHORIZER = {
  function: "authorizer",
  identityHeader: "X-API-Key",
  cacheTtlSeconds: 300,
} as const;

/** Largest request body API Gateway itself accepts (REST APIs: 10 MB). */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The contract's request rate per environment: API Gateway's stage throttling, and the local gateway's. */
export const STAGE_THROTTLING: Record<Environment, { rateLimit: number; burstLimit: number }> = {
  sandbox: { rateLimit: 25, burstLimit: 50 },
  production: { rateLimit: 100, burstLimit: 200 },
};
