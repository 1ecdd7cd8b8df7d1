import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_APPS_FUNCTION = {
  name: "list-apps",
  entry: "functions/list-apps.ts",
  settings: ["APPS_TABLE"],
  timeoutSeconds: 10,
  // The organisation's apps and each app's keys, from their indexes.
  access: { tables: { APPS_TABLE: ["dynamodb:Query"] }, uploads: [] },
  routes: [{ method: "GET", path: "/portal/v1/apps", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
