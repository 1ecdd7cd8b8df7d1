import type { FunctionDeclaration } from "../function-definition.ts";

export const CREATE_VERIFICATION_FUNCTION = {
  name: "create-verification",
  entry: "functions/create-verification.ts",
  settings: [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "IDEMPOTENCY_TABLE",
    "USAGE_TABLE",
    "UPLOADS_BUCKET",
    "VERIFICATION_RETENTION_DAYS",
    "IDENTITY_KEY_ID",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  timeoutSeconds: 29,
  access: {
    tables: {
      // DeleteItem: a create whose result cannot be saved removes the verification it wrote;
      // GetItem: a replay reads the personal fields (or the erasure) from the verification.
      VERIFICATIONS_TABLE: ["dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:GetItem"],
      IDEMPOTENCY_TABLE: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
      USAGE_TABLE: ["dynamodb:PutItem"],
    },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    // Presigning signs with the function's own credentials: they must allow the PUT.
    uploads: ["s3:PutObject"],
    // A verification by its keys: its identity number sealed; an expected one digested.
    identitySealing: "seal",
    subjectDigest: true,
  },
  routes: [{ method: "POST", path: "/v1/verifications" }],
} as const satisfies FunctionDeclaration;
