import type { FunctionDeclaration } from "../function-definition.ts";

export const SET_WEBHOOK_FUNCTION = {
  name: "set-webhook",
  entry: "functions/set-webhook.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE", "WEBHOOK_DESTINATIONS"],
  timeoutSeconds: 10,
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], AUDIT_TABLE: ["dynamodb:PutItem"] },
    uploads: [],
  },
  routes: [{ method: "PUT", path: "/portal/v1/apps/{app_id}/webhook", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
