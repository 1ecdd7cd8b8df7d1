import type { FunctionDeclaration } from "../function-definition.ts";

export const ASK_ISSUER_AGAIN_FUNCTION = {
  name: "ask-issuer-again",
  entry: "functions/ask-issuer-again.ts",
  settings: [
    "VERIFICATIONS_TABLE",
    "AUDIT_TABLE",
    "UPLOADS_BUCKET",
    "APPS_TABLE",
    "ISSUER",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
  ],
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
    // The lookup goes to the issuer queue, whose reader asks.
    issuer: "schedule",
  },
  routes: [
    {
      method: "POST",
      path: "/backoffice/v1/reviews/{verification_id}/issuer-lookup",
      groups: ["reviewers", "admins"],
    },
  ],
} as const satisfies FunctionDeclaration;
