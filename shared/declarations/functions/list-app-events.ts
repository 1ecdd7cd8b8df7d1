import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_APP_EVENTS_FUNCTION = {
  name: "list-app-events",
  entry: "functions/list-app-events.ts",
  settings: ["APPS_TABLE", "EVENTS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  // Query: the app's events by their index, and each event's attempts in its own partition.
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem"], EVENTS_TABLE: ["dynamodb:Query"], AUDIT_TABLE: ["dynamodb:PutItem"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/apps/{app_id}/events", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
