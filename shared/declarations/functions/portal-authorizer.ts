import type { FunctionDeclaration } from "../function-definition.ts";

export const PORTAL_AUTHORIZER_FUNCTION = {
  name: "portal-authorizer",
  entry: "functions/portal-authorizer.ts",
  settings: ["PORTAL_USER_POOL_ID", "PORTAL_CLIENT_ID", "IDENTITY_ENDPOINT", "APPS_TABLE"],
  timeoutSeconds: 10,
  // The caller's membership: which organisation, which role.
  access: { tables: { APPS_TABLE: ["dynamodb:GetItem"] }, uploads: [], userPool: "portal" },
  /** The TOKEN authorizer in front of every portal API route: a customer pool access token, and the caller's membership. */
  authorizer: { type: "TOKEN", identityHeader: "Authorization", cacheTtlSeconds: 60 },
} as const satisfies FunctionDeclaration;
