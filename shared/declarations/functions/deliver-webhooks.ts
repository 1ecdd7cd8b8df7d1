import type { FunctionDeclaration } from "../function-definition.ts";
import { DELIVERING_SETTINGS } from "../settings.ts";

export const DELIVER_WEBHOOKS_FUNCTION = {
  name: "deliver-webhooks",
  entry: "functions/deliver-webhooks.ts",
  settings: DELIVERING_SETTINGS,
  // A batch's attempts run side by side, each stopped at the delivery timeout (10 s).
  timeoutSeconds: 30,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem"],
      // The event, its claim, and the attempt recorded with what follows it (a transaction).
      EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem"],
    },
    uploads: [],
    secretsKey: true,
    sealing: "decrypt",
    deliveryQueue: "receive",
  },
  /** The delivery queue (`DELIVERY_QUEUE`). */
  trigger: "queue",
} as const satisfies FunctionDeclaration;
