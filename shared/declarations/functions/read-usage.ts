import type { FunctionDeclaration } from "../function-definition.ts";

export const READ_USAGE_FUNCTION = {
  name: "read-usage",
  entry: "functions/read-usage.ts",
  settings: ["APPS_TABLE", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"], USAGE_TABLE: ["dynamodb:Query"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/usage", groups: ["viewer"] }],
} as const satisfies FunctionDeclaration;
