import type { FunctionDeclaration } from "../function-definition.ts";
import { DELIVERING_SETTINGS } from "../settings.ts";

export const TICK_FUNCTION = {
  name: "tick",
  entry: "functions/tick.ts",
  // The canary asks e-Devlet's web form (ISSUER, EDEVLET_URL) every 15 minutes.
  settings: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "UPLOADS_BUCKET", "ISSUER", "EDEVLET_URL", ...DELIVERING_SETTINGS],
  timeoutSeconds: 300,
  access: {
    tables: {
      VERIFICATIONS_TABLE: ["dynamodb:Query", "dynamodb:UpdateItem"],
      APPS_TABLE: ["dynamodb:GetItem"],
      EVENTS_TABLE: ["dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:PutItem"],
    },
    // Overdue uploads and reviews, recent erasures, and due deliveries: sparse indexes, never the tables.
    queries: {
      VERIFICATIONS_TABLE: ["awaitingByDeadline", "inReviewByDeadline", "erasedByTime"],
      EVENTS_TABLE: ["dueDeliveries"],
    },
    // A document put back through an old upload URL after its verification was erased: found, removed.
    uploads: ["s3:GetObject", "s3:DeleteObject"],
    secretsKey: true,
    sealing: "decrypt",
  },
  /** Every minute, and with `canary` every 15 minutes. */
  trigger: "schedule",
} as const satisfies FunctionDeclaration;
