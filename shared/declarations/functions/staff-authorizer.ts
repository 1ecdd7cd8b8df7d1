import type { FunctionDeclaration } from "../function-definition.ts";

export const STAFF_AUTHORIZER_FUNCTION = {
  name: "staff-authorizer",
  entry: "functions/staff-authorizer.ts",
  settings: ["STAFF_USER_POOL_ID", "STAFF_CLIENT_ID", "IDENTITY_ENDPOINT"],
  timeoutSeconds: 10,
  access: { tables: {}, uploads: [], userPool: "staff" },
  /**
   * The TOKEN authorizer in front of every backoffice API route: a staff access token in
   * `Authorization: Bearer`. Cached briefly, so a disabled user is refused within a minute.
   */
  authorizer: { type: "TOKEN", identityHeader: "Authorization", cacheTtlSeconds: 60 },
} as const satisfies FunctionDeclaration;
