import type { FunctionDeclaration } from "../function-definition.ts";

export const SEND_EVENT_FUNCTION = {
  name: "send-event",
  entry: "functions/send-event.ts",
  settings: ["APPS_TABLE", "EVENTS_TABLE", "AUDIT_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: {
      APPS_TABLE: ["dynamodb:GetItem"],
      EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
      AUDIT_TABLE: ["dynamodb:PutItem"],
    },
    uploads: [],
  },
  routes: [{ method: "POST", path: "/portal/v1/events/{event_id}/send", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
