import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_MEMBERS_FUNCTION = {
  name: "list-members",
  entry: "functions/list-members.ts",
  settings: ["APPS_TABLE"],
  timeoutSeconds: 10,
  access: { tables: { APPS_TABLE: ["dynamodb:Query"] }, uploads: [] },
  routes: [{ method: "GET", path: "/portal/v1/users", groups: ["owner"] }],
} as const satisfies FunctionDeclaration;
