import type { FunctionDeclaration } from "../function-definition.ts";

export const REPLAY_EVENT_FUNCTION = {
  name: "replay-event",
  entry: "functions/replay-event.ts",
  settings: ["APPS_TABLE", "EVENTS_TABLE", "AUDIT_TABLE", "DELIVERY_QUEUE_URL", "SQS_ENDPOINT"],
  timeoutSeconds: 10,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem"],
      EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    uploads: [],
    // The new round's first attempt is made at once by the delivery queue's reader, not the tick's next run.
    deliveryQueue: "send",
  },
  routes: [{ method: "POST", path: "/portal/v1/events/{event_id}/replay", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
