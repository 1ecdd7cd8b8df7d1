import type { FunctionDeclaration } from "../function-definition.ts";

export const GET_VERIFICATION_FUNCTION = {
  name: "get-verification",
  entry: "functions/get-verification.ts",
  settings: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "UPLOADS_BUCKET", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem"], USAGE_TABLE: ["dynamodb:PutItem"] },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    uploads: ["s3:PutObject"],
  },
  routes: [{ method: "GET", path: "/v1/verifications/{verification_id}" }],
} as const satisfies FunctionDeclaration;
