import type { FunctionDeclaration } from "../function-definition.ts";

export const REVOKE_KEY_FUNCTION = {
  name: "revoke-key",
  entry: "functions/revoke-key.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], AUDIT_TABLE: ["dynamodb:PutItem"] },
    uploads: [],
  },
  routes: [{ method: "DELETE", path: "/portal/v1/apps/{app_id}/keys/{key_id}", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
