import type { FunctionDeclaration } from "../function-definition.ts";

export const ON_VERIFICATION_CHANGE_FUNCTION = {
  name: "on-verification-change",
  entry: "functions/on-verification-change.ts",
  settings: [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "UPLOADS_BUCKET",
    "EVENTS_TABLE",
    "USAGE_TABLE",
    "DELIVERY_QUEUE_URL",
    "ISSUER",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  // With no issuer configured, the checks on a 10 MiB document per record of a batch; no customer
  // endpoint and no issuer is called here.
  timeoutSeconds: 120,
  access: {
    tables: {
      VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
      // Query: an erased verification's events, whose bodies it rewrites.
      EVENTS_TABLE: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
      // A counter and the mark that the verification is counted, in one transaction.
      USAGE_TABLE: ["dynamodb:PutItem", "dynamodb:UpdateItem"],
    },
    // The upload (pinned now if it was confirmed before uploads were pinned) and, once the issuer
    // answered, its copy, which the issuer queue's reader keeps.
    uploads: ["s3:GetObject", "s3:PutObject"],
    issuer: "schedule",
    deliveryQueue: "send",
    subjectDigest: true,
  },
  /** Each change of the verifications table, in batches from its stream. */
  trigger: "stream",
} as const satisfies FunctionDeclaration;
