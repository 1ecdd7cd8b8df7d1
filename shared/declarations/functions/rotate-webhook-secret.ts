import type { FunctionDeclaration } from "../function-definition.ts";

export const ROTATE_WEBHOOK_SECRET_FUNCTION = {
  name: "rotate-webhook-secret",
  entry: "functions/rotate-webhook-secret.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE", "SEALING_KEY_ID", "KMS_ENDPOINT"],
  timeoutSeconds: 10,
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], AUDIT_TABLE: ["dynamodb:PutItem"] },
    uploads: [],
    sealing: "encrypt",
  },
  routes: [{ method: "POST", path: "/portal/v1/apps/{app_id}/webhook/secret", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
