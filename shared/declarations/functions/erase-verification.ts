import type { FunctionDeclaration } from "../function-definition.ts";

export const ERASE_VERIFICATION_FUNCTION = {
  name: "erase-verification",
  entry: "functions/erase-verification.ts",
  settings: ["VERIFICATIONS_TABLE", "UPLOADS_BUCKET", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], USAGE_TABLE: ["dynamodb:PutItem"] },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    // The upload, its pinned copy and the issuer's copy.
    uploads: ["s3:DeleteObject"],
  },
  routes: [{ method: "DELETE", path: "/v1/verifications/{verification_id}" }],
} as const satisfies FunctionDeclaration;
