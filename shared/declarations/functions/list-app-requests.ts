import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_APP_REQUESTS_FUNCTION = {
  name: "list-app-requests",
  entry: "functions/list-app-requests.ts",
  settings: ["APPS_TABLE", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: {
      // The app, to check the caller's organisation owns it.
      APPS_TABLE: ["dynamodb:GetItem"],
      // The app's kept requests, by their index only: no usage counter, no request by its id.
      USAGE_TABLE: ["dynamodb:Query"],
    },
    queries: { USAGE_TABLE: ["requestsByApp"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/apps/{app_id}/requests", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
