import type { FunctionDeclaration } from "../function-definition.ts";

export const REPLAY_EVENT_FUNCTION = {
  name: "replay-event",
  entry: "functions/replay-event.ts",
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
  routes: [{ method: "POST", path: "/portal/v1/events/{event_id}/replay", groups: ["developer"] }],
} as const satisfies FunctionDeclaration;
