import type { FunctionDeclaration } from "../function-definition.ts";

export const READ_AUDIT_FUNCTION = {
  name: "read-audit",
  entry: "functions/read-audit.ts",
  settings: ["AUDIT_TABLE"],
  timeoutSeconds: 10,
  // Reading the trail is itself recorded.
  access: { tables: { AUDIT_TABLE: ["dynamodb:Query", "dynamodb:PutItem"] }, uploads: [] },
  routes: [{ method: "GET", path: "/backoffice/v1/audit", groups: ["admins"] }],
} as const satisfies FunctionDeclaration;
