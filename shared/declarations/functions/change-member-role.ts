import type { FunctionDeclaration } from "../function-definition.ts";

export const CHANGE_MEMBER_ROLE_FUNCTION = {
  name: "change-member-role",
  entry: "functions/change-member-role.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    // The member by username (its index), the organisation's other owners, and the change with its record.
    tables: {
      APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    queries: { APPS_TABLE: ["membersByOrganization"] },
    uploads: [],
  },
  routes: [{ method: "PATCH", path: "/portal/v1/users/{username}", groups: ["owner"] }],
} as const satisfies FunctionDeclaration;
