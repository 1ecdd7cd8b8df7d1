import type { FunctionDeclaration } from "../function-definition.ts";

export const LIST_VERIFICATIONS_FUNCTION = {
  name: "list-verifications",
  entry: "functions/list-verifications.ts",
  settings: ["VERIFICATIONS_TABLE", "USAGE_TABLE"],
  timeoutSeconds: 10,
  access: {
    tables: { VERIFICATIONS_TABLE: ["dynamodb:Query"], USAGE_TABLE: ["dynamodb:PutItem"] },
    leadingKeys: { USAGE_TABLE: ["requests"] },
    uploads: [],
  },
  routes: [{ method: "GET", path: "/v1/verifications" }],
} as const satisfies FunctionDeclaration;
