import type { FunctionDeclaration } from "../function-definition.ts";

export const VIEW_VERIFICATION_FUNCTION = {
  name: "view-verification",
  entry: "functions/view-verification.ts",
  settings: ["APPS_TABLE", "VERIFICATIONS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem"],
      VERIFICATIONS_TABLE: ["dynamodb:GetItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/verifications/{verification_id}", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
