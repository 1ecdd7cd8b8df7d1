import type { FunctionDeclaration } from "../function-definition.ts";

export const GET_MEMBER_FUNCTION = {
  name: "get-member",
  entry: "functions/get-member.ts",
  settings: ["APPS_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"] },
    queries: { APPS_TABLE: ["membersByOrganization"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/portal/v1/users/{username}", groups: ["owner"] }],
} as const satisfies FunctionDeclaration;
