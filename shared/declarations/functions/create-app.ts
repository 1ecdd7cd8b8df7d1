import type { FunctionDeclaration } from "../function-definition.ts";

export const CREATE_APP_FUNCTION = {
  name: "create-app",
  entry: "functions/create-app.ts",
  settings: [
    "ENVIRONMENT",
    "APPS_TABLE",
    "AUDIT_TABLE",
    "SEALING_KEY_ID",
    "KMS_ENDPOINT",
    "WEBHOOK_DESTINATIONS",
    "USAGE_PLAN_ID",
    "APIGATEWAY_ENDPOINT",
  ],
  timeoutSeconds: 10,
  access: {
    // The organisation's app count, read and taken with the app (UpdateItem); Query: the apps of
    // an organisation stored before apps were counted, counted once.
    tables: {
      APPS_TABLE: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:Query"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    queries: { APPS_TABLE: ["appsByOrganization"] },
    uploads: [],
    sealing: "encrypt",
    appLimits: "register",
  },
  routes: [{ method: "POST", path: "/portal/v1/apps", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
