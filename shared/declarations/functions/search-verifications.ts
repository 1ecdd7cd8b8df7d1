import type { FunctionDeclaration } from "../function-definition.ts";

export const SEARCH_VERIFICATIONS_FUNCTION = {
  name: "search-verifications",
  entry: "functions/search-verifications.ts",
  settings: ["APPS_TABLE", "VERIFICATIONS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem"],
      VERIFICATIONS_TABLE: ["dynamodb:Query"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/verifications", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
