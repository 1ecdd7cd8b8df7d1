import type { FunctionDeclaration } from "../function-definition.ts";

export const ASK_ISSUER_FUNCTION = {
  name: "ask-issuer",
  entry: "functions/ask-issuer.ts",
  settings: [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "UPLOADS_BUCKET",
    "ISSUER",
    "EDEVLET_PROTOCOL",
    "EDEVLET_URL",
    "EDEVLET_MOBILE_URL",
    "AUTHORITY_URL",
    "AUTHORITY_SECRET",
    "AUTHORITY_SECRET_ARN",
    "ISSUER_RETRY_WINDOW_S",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
    "IDENTITY_KEY_ID",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  // One lookup (15 s at most) and the checks on a 10 MiB document around it.
  timeoutSeconds: 60,
  access: {
    // Its lookups' state on the verification, and the decision once an answer is recorded.
    tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"] },
    // The upload it reads the keys from, and the issuer's copy it keeps beside it.
    uploads: ["s3:GetObject", "s3:PutObject"],
    issuer: "ask",
    // Opens the identity number of a verification by its keys, for its lookup only.
    identitySealing: "open",
    subjectDigest: true,
  },
  /** The issuer queue (`ISSUER_QUEUE`), one lookup a message. */
  trigger: "queue",
} as const satisfies FunctionDeclaration;
