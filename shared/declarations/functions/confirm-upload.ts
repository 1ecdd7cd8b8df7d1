import type { FunctionDeclaration } from "../function-definition.ts";

export const CONFIRM_UPLOAD_FUNCTION = {
  name: "confirm-upload",
  entry: "functions/confirm-upload.ts",
  settings: [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "USAGE_TABLE",
    "UPLOADS_BUCKET",
    "ISSUER",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  timeoutSeconds: 29,
  access: {
    tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], USAGE_TABLE: ["dynamodb:PutItem"] },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    // HeadObject and ranged GetObject both need s3:GetObject; a sync confirm processes (the
    // issuer's copy is written by the issuer queue's reader, which it waits for).
    uploads: ["s3:GetObject", "s3:DeleteObject"],
    issuer: "schedule",
    subjectDigest: true,
  },
  routes: [{ method: "POST", path: "/v1/verifications/{verification_id}/upload-complete" }],
} as const satisfies FunctionDeclaration;
