import type { FunctionDeclaration } from "../function-definition.ts";

export const AUTHORIZER_FUNCTION = {
  name: "authorizer",
  entry: "functions/authorizer.ts",
  settings: ["ENVIRONMENT", "APPS_TABLE"],
  timeoutSeconds: 10,
  // A key's item holds what the decision needs: the authorizer reads key items and nothing else,
  // and writes one attribute of them, the key's last use (at most once a minute per key).
  access: {
    tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"] },
    leadingKeys: { APPS_TABLE: ["apiKeys"] },
    updatedAttributes: { APPS_TABLE: ["last_used_at"] },
    uploads: [],
  },
  /** The REQUEST authorizer in front of every public route. */
  authorizer: { type: "REQUEST", identityHeader: "X-API-Key", cacheTtlSeconds: 300 },
} as const satisfies FunctionDeclaration;
