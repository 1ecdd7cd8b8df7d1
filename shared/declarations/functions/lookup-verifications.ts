import type { FunctionDeclaration } from "../function-definition.ts";

export const LOOKUP_VERIFICATIONS_FUNCTION = {
  name: "lookup-verifications",
  entry: "functions/lookup-verifications.ts",
  settings: ["APPS_TABLE", "VERIFICATIONS_TABLE", "AUDIT_TABLE", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: {
      // The organisation's apps by their index; a verification by its id, an app's by their indexes.
      APPS_TABLE: ["dynamodb:Query"],
      VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
      // A request by its id, from the public API's request log.
      USAGE_TABLE: ["dynamodb:GetItem"],
    },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    queries: { APPS_TABLE: ["appsByOrganization"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/lookup", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
