import type { FunctionDeclaration } from "../function-definition.ts";

export const REMOVE_MEMBER_FUNCTION = {
  name: "remove-member",
  entry: "functions/remove-member.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE", "PORTAL_USER_POOL_ID", "IDENTITY_ENDPOINT"],
  timeoutSeconds: 10,
  access: {
    tables: {
      APPS_TABLE: [
        "dynamodb:GetItem",
        "dynamodb:Query",
        "dynamodb:DeleteItem",
        "dynamodb:UpdateItem",
        "dynamodb:ConditionCheckItem",
      ],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    queries: { APPS_TABLE: ["membersByOrganization"] },
    uploads: [],
    // Every session of theirs ended, then the user deleted: the username is free again.
    portalUserAdmin: ["cognito-idp:AdminUserGlobalSignOut", "cognito-idp:AdminDeleteUser"],
  },
  routes: [{ method: "DELETE", path: "/portal/v1/users/{username}", groups: ["owner"] }],
} as const satisfies FunctionDeclaration;
