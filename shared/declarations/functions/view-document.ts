import type { FunctionDeclaration } from "../function-definition.ts";

export const VIEW_DOCUMENT_FUNCTION = {
  name: "view-document",
  entry: "functions/view-document.ts",
  settings: ["VERIFICATIONS_TABLE", "AUDIT_TABLE", "UPLOADS_BUCKET"],
  timeoutSeconds: 10,
  access: {
    tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem"], AUDIT_TABLE: ["dynamodb:PutItem"] },
    // HeadObject to know the copy exists; the presigned GET is signed with these credentials.
    uploads: ["s3:GetObject"],
  },
  routes: [
    { method: "GET", path: "/backoffice/v1/verifications/{verification_id}/document", groups: ["reviewers", "admins"] },
  ],
} as const satisfies FunctionDeclaration;
