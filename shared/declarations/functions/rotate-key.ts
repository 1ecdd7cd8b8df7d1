import type { FunctionDeclaration } from "../function-definition.ts";

export const ROTATE_KEY_FUNCTION = {
  name: "rotate-key",
  entry: "functions/rotate-key.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    uploads: [],
  },
  routes: [{ method: "POST", path: "/portal/v1/apps/{app_id}/keys", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
