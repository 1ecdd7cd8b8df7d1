import type { ProblemCode } from "../http/problems.ts";

/**
 * What API Gateway answers by itself, before or instead of a function: the same
 * problem+json as the handlers. The local gateway and the CDK stack both use this table.
 */
export interface GatewayResponseDefinition {
  code: ProblemCode;
  detail: string;
  headers?: Record<string, string>;
}

export const GATEWAY_RESPONSES = {
  UNAUTHORIZED: {
    code: "invalid_api_key",
    detail: "Send a valid API key of this environment in the X-API-Key header",
  },
  ACCESS_DENIED: { code: "app_disabled", detail: "The client app of this API key is disabled" },
  MISSING_AUTHENTICATION_TOKEN: { code: "route_not_found", detail: "No route matches this method and path" },
  REQUEST_TOO_LARGE: {
    code: "payload_too_large",
    detail: "The request is too large: a body of at most 16 KiB, headers of at most 10 KiB",
  },
  THROTTLED: {
    code: "rate_limited",
    detail: "Request rate limit exceeded; retry after the time in Retry-After",
    headers: { "Retry-After": "1" },
  },
  AUTHORIZER_FAILURE: {
    code: "service_unavailable",
    detail: "The API key could not be checked right now; retry after the time in Retry-After",
    headers: { "Retry-After": "1" },
  },
  // An app whose own rate bucket is missing (its usage-plan key not made yet): the service's fault, not the caller's.
  INVALID_API_KEY: {
    code: "service_unavailable",
    detail: "This app's requests cannot be taken right now; retry after the time in Retry-After",
    headers: { "Retry-After": "60" },
  },
  DEFAULT_5XX: {
    code: "internal_error",
    detail: "An unexpected error occurred; retry later or contact support with the request_id",
  },
} as const satisfies Record<string, GatewayResponseDefinition>;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/**
 * A known path with a method it does not take: answered by the API itself (a mock method on
 * each path in AWS, the local gateway on one machine), with `Allow` listing the path's methods.
 */
export const METHOD_NOT_ALLOWED: GatewayResponseDefinition = {
  code: "method_not_allowed",
  detail: "This path does not take this method; Allow lists the methods it takes",
};

/** The backoffice API's: the same, but its credential is a staff access token. */
export const BACKOFFICE_GATEWAY_RESPONSES = {
  ...GATEWAY_RESPONSES,
  UNAUTHORIZED: {
    code: "invalid_token",
    detail: "Send a valid staff access token of this environment as Authorization: Bearer <token>",
  },
  ACCESS_DENIED: { code: "forbidden", detail: "Your staff groups do not allow this route" },
  AUTHORIZER_FAILURE: {
    code: "service_unavailable",
    detail: "The access token could not be checked right now; retry after the time in Retry-After",
    headers: { "Retry-After": "1" },
  },
} as const satisfies Record<GatewayResponseType, GatewayResponseDefinition>;

/** The portal API: a portal user's access token, and the roles of their organisation. */
export const PORTAL_GATEWAY_RESPONSES = {
  ...BACKOFFICE_GATEWAY_RESPONSES,
  UNAUTHORIZED: {
    code: "invalid_token",
    detail: "Sign in to the portal of this environment and send its access token as Authorization: Bearer <token>",
  },
  ACCESS_DENIED: { code: "forbidden", detail: "Your role in the organisation does not allow this" },
} as const satisfies Record<GatewayResponseType, GatewayResponseDefinition>;
