import type { FunctionDeclaration } from "../function-definition.ts";

/**
 * Seals the records written since the last digest (`use-cases/audit/seal.ts`): the one role that
 * may sign a digest and put it; it reads the records and never writes one.
 */
export const SEAL_AUDIT_FUNCTION = {
  name: "seal-audit",
  entry: "functions/seal-audit.ts",
  settings: ["ENVIRONMENT", "AUDIT_TABLE", "AUDIT_DIGESTS_TABLE", "AUDIT_SEALING_KEY_ID", "KMS_ENDPOINT"],
  timeoutSeconds: 300,
  access: {
    tables: { AUDIT_TABLE: ["dynamodb:Query"], AUDIT_DIGESTS_TABLE: ["dynamodb:Query", "dynamodb:PutItem"] },
    uploads: [],
    auditSealing: true,
  },
  /** Every few minutes. */
  trigger: "schedule",
} as const satisfies FunctionDeclaration;
