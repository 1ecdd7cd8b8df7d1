import type { FunctionDeclaration } from "../function-definition.ts";
import { DELIVERING_SETTINGS } from "../settings.ts";

export const TEST_WEBHOOK_FUNCTION = {
  name: "test-webhook",
  entry: "functions/test-webhook.ts",
  settings: ["AUDIT_TABLE", ...DELIVERING_SETTINGS],
  // One delivery attempt (10 s) while the caller waits.
  timeoutSeconds: 29,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem"],
      // The event, its attempt, and the app's sends by hand (`SENDING_LIMITS`).
      EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    uploads: [],
    secretsKey: true,
    sealing: "decrypt",
  },
  routes: [{ method: "POST", path: "/portal/v1/apps/{app_id}/webhook/test", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
