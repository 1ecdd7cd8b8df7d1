import type { FunctionDeclaration } from "../function-definition.ts";

export const RENAME_KEY_FUNCTION = {
  name: "rename-key",
  entry: "functions/rename-key.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    // Query: the app's keys by the keys_by_app index, to find the one named.
    tables: {
      APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    queries: { APPS_TABLE: ["keysByApp"] },
    uploads: [],
  },
  routes: [{ method: "PATCH", path: "/portal/v1/apps/{app_id}/keys/{key_id}", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
