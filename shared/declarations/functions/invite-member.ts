import type { FunctionDeclaration } from "../function-definition.ts";

export const INVITE_MEMBER_FUNCTION = {
  name: "invite-member",
  entry: "functions/invite-member.ts",
  settings: ["APPS_TABLE", "AUDIT_TABLE", "PORTAL_USER_POOL_ID", "IDENTITY_ENDPOINT"],
  timeoutSeconds: 10,
  access: {
    // The membership and the organisation's member place in one write; its pending invitations
    // from the members index, each found joined recorded so; memberships left under the
    // username by a deleted user, from the username index, each deleted with its record.
    tables: {
      APPS_TABLE: [
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "dynamodb:Query",
      ],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    queries: { APPS_TABLE: ["membersByOrganization", "membersByUsername"] },
    uploads: [],
    // The invitee made (and taken away again when the last place went to another invite
    // meanwhile), and whether each pending invitee has signed in.
    portalUserAdmin: [
      "cognito-idp:AdminCreateUser",
      "cognito-idp:AdminGetUser",
      "cognito-idp:AdminUserGlobalSignOut",
      "cognito-idp:AdminDeleteUser",
    ],
  },
  routes: [{ method: "POST", path: "/portal/v1/users", groups: ["owner"] }],
} as const satisfies FunctionDeclaration;
