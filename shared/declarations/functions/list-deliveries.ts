import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_DELIVERIES_FUNCTION = {
  name: "list-deliveries",
  entry: "functions/list-deliveries.ts",
  settings: ["APPS_TABLE", "EVENTS_TABLE"],
  timeoutSeconds: 10,
  access: { tables: { APPS_TABLE: ["dynamodb:GetItem"], EVENTS_TABLE: ["dynamodb:Query"] }, uploads: [] },
  routes: [{ method: "GET", path: "/portal/v1/apps/{app_id}/deliveries", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
