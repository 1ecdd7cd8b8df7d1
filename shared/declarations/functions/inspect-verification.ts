import type { FunctionDeclaration } from "../function-definition.ts";

export const INSPECT_VERIFICATION_FUNCTION = {
  name: "inspect-verification",
  entry: "functions/inspect-verification.ts",
  settings: ["VERIFICATIONS_TABLE", "AUDIT_TABLE", "UPLOADS_BUCKET", "APPS_TABLE"],
  timeoutSeconds: 10,
  access: {
    // The app's name beside its id.
    tables: {
      VERIFICATIONS_TABLE: ["dynamodb:GetItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
      APPS_TABLE: ["dynamodb:GetItem"],
    },
    uploads: ["s3:GetObject"],
  },
  routes: [{ method: "GET", path: "/backoffice/v1/verifications/{verification_id}", groups: ["reviewers", "admins"] }],
} as const satisfies FunctionDeclaration;
