import type { FunctionDeclaration } from "../function-definition.ts";

export const DECIDE_REVIEW_FUNCTION = {
  name: "decide-review",
  entry: "functions/decide-review.ts",
  settings: ["VERIFICATIONS_TABLE", "AUDIT_TABLE", "UPLOADS_BUCKET", "APPS_TABLE"],
  timeoutSeconds: 10,
  access: {
    // The app's name beside its id, for the answer.
    tables: {
      VERIFICATIONS_TABLE: ["dynamodb:UpdateItem", "dynamodb:GetItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
      APPS_TABLE: ["dynamodb:GetItem"],
    },
    // Which copies exist, for the answer.
    uploads: ["s3:GetObject"],
  },
  routes: [
    { method: "POST", path: "/backoffice/v1/reviews/{verification_id}/decision", groups: ["reviewers", "admins"] },
  ],
} as const satisfies FunctionDeclaration;
