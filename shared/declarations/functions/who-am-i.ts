import type { FunctionDeclaration } from "../function-definition.ts";

export const WHO_AM_I_FUNCTION = {
  name: "who-am-i",
  entry: "functions/who-am-i.ts",
  settings: ["APPS_TABLE"],
  timeoutSeconds: 10,
  // Query: the apps of an organisation stored before apps were counted, counted once.
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"] },
    queries: { APPS_TABLE: ["appsByOrganization"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/me", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
