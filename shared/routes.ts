import type { SettingName } from "./config.ts";

/**
 * The functions and the routes that reach them. The local gateway serves exactly these
 * routes and the CDK stack wires exactly these, so the two cannot drift.
 */

export interface FunctionDefinition {
  /** Entry file, relative to the project root. */
  entry: string;
  /** The settings the function reads at cold start; the stack sets exactly these. */
  settings: readonly SettingName[];
}

export const FUNCTIONS = {
  authorizer: {
    entry: "functions/authorizer.ts",
    settings: ["ENVIRONMENT", "APPS_TABLE"],
  },
  "create-verification": {
    entry: "functions/create-verification.ts",
    settings: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "IDEMPOTENCY_TABLE", "UPLOADS_BUCKET"],
  },
  "confirm-upload": {
    entry: "functions/confirm-upload.ts",
    settings: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "UPLOADS_BUCKET"],
  },
  "get-verification": {
    entry: "functions/get-verification.ts",
    settings: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "UPLOADS_BUCKET"],
  },
} as const satisfies Record<string, FunctionDefinition>;

export type FunctionName = keyof typeof FUNCTIONS;

export interface RouteDefinition {
  method: "GET" | "POST";
  /** Path template; `{name}` is a path parameter, as API Gateway writes it. */
  path: string;
  function: Exclude<FunctionName, "authorizer">;
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
