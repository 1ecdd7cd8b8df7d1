/**
 * What the ops command may do in a deployed environment, and nothing more: the operator role
 * the stack creates grants exactly this, to people signed in with MFA. Each entry names the
 * commands that need it.
 */
import { AUDIT_RETENTION_SECONDS } from "../domain/audit.ts";
import { documentKey } from "../domain/verification.ts";
import type { TableSetting } from "./function-definition.ts";

export const OPERATOR_ACCESS = {
  tables: {
    // apps, keys, webhooks set and rotate-secret, orgs: items of every kind; apps list scans;
    // orgs remove-member deletes a membership, and orgs invite those a deleted user left
    // behind under the username it gives again.
    APPS_TABLE: [
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
      "dynamodb:Query",
      "dynamodb:Scan",
      "dynamodb:ConditionCheckItem",
    ],
    // webhooks deliveries and replay.
    EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    // erase: by app or reference, from their indexes; each erasure is written with its record.
    VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    // Every change is recorded (a put); audit verify reads the months and scans for records outside them.
    AUDIT_TABLE: ["dynamodb:PutItem", "dynamodb:Query", "dynamodb:Scan"],
    // audit verify reads the digests; only the sealer writes them.
    AUDIT_DIGESTS_TABLE: ["dynamodb:Query"],
  },
  // erase: the document, its pinned copy and the issuer's copy.
  uploads: ["s3:DeleteObject"],
  uploadsPrefix: documentKey(""),
  // staff (staff pool) and orgs invite, remove-member and disable-member (customer pool).
  userPools: [
    "cognito-idp:AdminCreateUser",
    "cognito-idp:AdminGetUser",
    "cognito-idp:AdminDeleteUser",
    "cognito-idp:AdminAddUserToGroup",
    "cognito-idp:AdminDisableUser",
    "cognito-idp:AdminEnableUser",
    "cognito-idp:AdminRemoveUserFromGroup",
    "cognito-idp:AdminUserGlobalSignOut",
    "cognito-idp:AdminListGroupsForUser",
    "cognito-idp:ListUsers",
  ],
  // webhooks reseal opens secrets sealed before KMS with the retired key material (and seals
  // them again with the KMS key, encrypt only, as apps create and webhooks rotate-secret do).
  sealingKey: ["secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"],
  kms: ["kms:Encrypt"],
  // audit verify checks the digests' signatures with the sealing key's public half; never signs.
  auditKey: ["kms:GetPublicKey"],
  // apps create registers the new app's request bucket; apps sync-limits lists the plan's keys too.
  appLimits: "sync",
  // Every command finds the tables, bucket, key and pools in the stack's outputs.
  stack: ["cloudformation:DescribeStacks"],
} as const satisfies {
  tables: Partial<Record<TableSetting, readonly `dynamodb:${string}`[]>>;
  uploads: readonly `s3:${string}`[];
  uploadsPrefix: string;
  userPools: readonly `cognito-idp:${string}`[];
  sealingKey: readonly `secretsmanager:${string}`[];
  kms: readonly `kms:${string}`[];
  auditKey: readonly `kms:${string}`[];
  appLimits: "sync";
  stack: readonly `cloudformation:${string}`[];
};

/** How long an operator's session lasts before MFA is asked again. */
export const OPERATOR_SESSION_SECONDS = 3600;

/**
 * What CloudTrail records of operators' sessions: every data event (read or write) of the operator
 * role on these tables, which hold personal data (verifications), the apps, organisations and
 * members, and the audit trail. The records are log files with their digest files in a bucket of
 * the stack, kept as long as the audit trail keeps its own records.
 */
export const OPERATOR_TRAIL = {
  tables: ["VERIFICATIONS_TABLE", "APPS_TABLE", "AUDIT_TABLE"],
  keptDays: Math.ceil(AUDIT_RETENTION_SECONDS / (24 * 60 * 60)),
} as const satisfies { tables: readonly TableSetting[]; keptDays: number };
