import type { FunctionDeclaration } from "../function-definition.ts";

export const CLAIM_REVIEW_FUNCTION = {
  name: "claim-review",
  entry: "functions/claim-review.ts",
  settings: ["VERIFICATIONS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { VERIFICATIONS_TABLE: ["dynamodb:UpdateItem", "dynamodb:GetItem"], AUDIT_TABLE: ["dynamodb:PutItem"] },
    uploads: [],
  },
  routes: [{ method: "POST", path: "/backoffice/v1/reviews/{verification_id}/claim", groups: ["reviewers", "admins"] }],
} as const satisfies FunctionDeclaration;
