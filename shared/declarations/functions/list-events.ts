import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_EVENTS_FUNCTION = {
  name: "list-events",
  entry: "functions/list-events.ts",
  settings: ["EVENTS_TABLE", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { EVENTS_TABLE: ["dynamodb:Query"], USAGE_TABLE: ["dynamodb:PutItem"] },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/v1/events" }],
} as const satisfies FunctionDeclaration;
