import type { SettingName } from "./settings.ts";

/**
 * One definition of each table: keys, indexes, TTL and stream. The CDK stack, the local
 * runtime and the tests all build their tables from these.
 */

export interface KeyAttribute {
  name: string;
  type: "S" | "N";
}

export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /**
   * The upgrade step that adds the index to a table that exists already: DynamoDB (and so
   * CloudFormation) creates one index per table per update, so a stack deployed before it is
   * upgraded with `-c indexStep=1`, then `=2`, ..., then without (see Deploy in the README).
   * A new table is created with every index at once.
   */
  addedInStep?: number;
}

export interface TableDefinition {
  /** Logical name, used for construct ids and local table names. */
  id: string;
  /** The setting through which functions learn the physical table name. */
  setting: SettingName;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /** The table's indexes by the name code looks them up with, in the order they were added. */
  indexes: Readonly<Record<string, IndexDefinition>>;
  /** The same indexes as a list, for what makes every one of them (the stack, the local runtime). */
  globalIndexes: readonly IndexDefinition[];
  ttlAttribute?: string;
  stream?: "NEW_AND_OLD_IMAGES";
  /** Records are only ever added: the deployed table denies updates and deletes to every principal. */
  appendOnly?: true;
}

const APPS_INDEXES = {
  // Sparse: only key items carry key_app_id, so an app's keys list in creation order.
  keysByApp: {
    indexName: "keys_by_app",
    partitionKey: { name: "key_app_id", type: "S" },
    sortKey: { name: "created_at", type: "S" },
  },
  // Sparse: only apps an organisation owns carry organization_id with app_id, so its apps list in creation order.
  appsByOrganization: {
    indexName: "apps_by_organization",
    partitionKey: { name: "organization_id", type: "S" },
    sortKey: { name: "app_id", type: "S" },
    addedInStep: 1,
  },
  // Sparse: only memberships carry member_org_id, so an organisation's people list by name.
  membersByOrganization: {
    indexName: "members_by_organization",
    partitionKey: { name: "member_org_id", type: "S" },
    sortKey: { name: "username", type: "S" },
    addedInStep: 2,
  },
  // Sparse: only memberships carry username, so a name's memberships in every organisation are
  // found when the name is taken again (those of a deleted user are dropped then).
  membersByUsername: {
    indexName: "members_by_username",
    partitionKey: { name: "username", type: "S" },
    sortKey: { name: "member_org_id", type: "S" },
    addedInStep: 3,
  },
} as const satisfies Record<string, IndexDefinition>;

export const APPS_TABLE = {
  id: "Apps",
  setting: "APPS_TABLE",
  // APP#<app_id> for an app, KEY#<sha256 of the key> for one of its API keys, ORG#<organization_id>
  // for an organisation, MEMBER#<sub> for a portal user's membership.
  partitionKey: { name: "pk", type: "S" },
  indexes: APPS_INDEXES,
  globalIndexes: Object.values(APPS_INDEXES),
} as const satisfies TableDefinition;

const VERIFICATIONS_INDEXES = {
  // Sparse: only awaiting_upload items carry awaiting_day (the deadline's UTC date), so
  // the expiry tick reads overdue uploads day by day without scanning.
  awaitingByDeadline: {
    indexName: "awaiting_by_deadline",
    partitionKey: { name: "awaiting_day", type: "S" },
    sortKey: { name: "upload_deadline", type: "S" },
  },
  // Sparse: only in_review items carry review_day (the review deadline's UTC date), so the
  // tick closes reviews nobody decided in time without scanning.
  inReviewByDeadline: {
    indexName: "in_review_by_deadline",
    partitionKey: { name: "review_day", type: "S" },
    sortKey: { name: "review_deadline", type: "S" },
  },
  // An app's verifications by creation time: the public list and the portal's search.
  byApp: {
    indexName: "verifications_by_app",
    partitionKey: { name: "app_id", type: "S" },
    sortKey: { name: "created_at", type: "S" },
    addedInStep: 1,
  },
  // Sparse: only verifications created with a reference carry app_reference (`<app_id>#<reference>`).
  byReference: {
    indexName: "verifications_by_reference",
    partitionKey: { name: "app_reference", type: "S" },
    sortKey: { name: "created_at", type: "S" },
    addedInStep: 2,
  },
  // Sparse: only erased items carry erased_day (the erasure's UTC date), so the tick finds those
  // erased while an upload URL signed before could still put a document back, without scanning.
  erasedByTime: {
    indexName: "erased_by_time",
    partitionKey: { name: "erased_day", type: "S" },
    sortKey: { name: "redacted_at", type: "S" },
    addedInStep: 3,
  },
} as const satisfies Record<string, IndexDefinition>;

export const VERIFICATIONS_TABLE = {
  id: "Verifications",
  setting: "VERIFICATIONS_TABLE",
  partitionKey: { name: "verification_id", type: "S" },
  indexes: VERIFICATIONS_INDEXES,
  globalIndexes: Object.values(VERIFICATIONS_INDEXES),
  // Set on create: the record is deleted the retention period after it was made.
  ttlAttribute: "expires_at_epoch",
  stream: "NEW_AND_OLD_IMAGES",
} as const satisfies TableDefinition;

/** The layout `@aws-lambda-powertools/idempotency` expects. */
export const IDEMPOTENCY_TABLE = {
  id: "Idempotency",
  setting: "IDEMPOTENCY_TABLE",
  partitionKey: { name: "id", type: "S" },
  indexes: {},
  globalIndexes: [],
  ttlAttribute: "expiration",
} as const satisfies TableDefinition;

/**
 * Webhook events and their delivery attempts: `pk = EVT#<event_id>`, `sk = EVENT` for the event,
 * `sk = ATTEMPT#<time>` for each attempt. Kept 30 days (TTL).
 */
const EVENTS_INDEXES = {
  // Sparse: only events waiting for a delivery attempt carry due_shard; the tick reads the due ones.
  dueDeliveries: {
    indexName: "due_deliveries",
    partitionKey: { name: "due_shard", type: "S" },
    sortKey: { name: "next_attempt_at", type: "S" },
  },
  // Sparse: only attempts carry attempt_app_id, so operators list an app's recent attempts.
  attemptsByApp: {
    indexName: "attempts_by_app",
    partitionKey: { name: "attempt_app_id", type: "S" },
    sortKey: { name: "attempted_at", type: "S" },
  },
  // Sparse: only events carry app_id, so an app's events list in the order they happened.
  byApp: {
    indexName: "events_by_app",
    partitionKey: { name: "app_id", type: "S" },
    sortKey: { name: "event_id", type: "S" },
    addedInStep: 1,
  },
  // A verification's events, so erasing it reaches the bodies already sent.
  byVerification: {
    indexName: "events_by_verification",
    partitionKey: { name: "verification_id", type: "S" },
    sortKey: { name: "sequence", type: "N" },
    addedInStep: 2,
  },
} as const satisfies Record<string, IndexDefinition>;

export const EVENTS_TABLE = {
  id: "Events",
  setting: "EVENTS_TABLE",
  partitionKey: { name: "pk", type: "S" },
  sortKey: { name: "sk", type: "S" },
  indexes: EVENTS_INDEXES,
  globalIndexes: Object.values(EVENTS_INDEXES),
  ttlAttribute: "expires_at_epoch",
} as const satisfies TableDefinition;

/**
 * What staff, portal users and operators did: one record per change and per read of personal
 * data, partitioned by month and chain (`AUDIT_CHAINS` in `domain/audit.ts`: staff's, operators',
 * the portal's shares by organisation) so a month's chain reads in order and no tenant writes
 * where staff do, kept two years after its month (TTL).
 * Append only: the functions may only put, with a condition that no record is replaced.
 */
const AUDIT_INDEXES = {
  byVerification: {
    indexName: "audit_by_verification",
    partitionKey: { name: "verification_id", type: "S" },
    sortKey: { name: "audit_id", type: "S" },
  },
  byActor: {
    indexName: "audit_by_actor",
    partitionKey: { name: "actor_sub", type: "S" },
    sortKey: { name: "audit_id", type: "S" },
  },
} as const satisfies Record<string, IndexDefinition>;

export const AUDIT_TABLE = {
  id: "Audit",
  setting: "AUDIT_TABLE",
  partitionKey: { name: "month", type: "S" },
  // `aud_` and a ULID: time order within the month.
  sortKey: { name: "audit_id", type: "S" },
  indexes: AUDIT_INDEXES,
  globalIndexes: Object.values(AUDIT_INDEXES),
  ttlAttribute: "expires_at_epoch",
  appendOnly: true,
} as const satisfies TableDefinition;

/**
 * The audit trail's signed digests (`domain/audit-digests.ts`): per month, in place order. Only
 * the sealer may put one, never over another; no writer of records may touch it. Kept for good:
 * a digest holds ids and hashes, no personal data.
 */
export const AUDIT_DIGESTS_TABLE = {
  id: "AuditDigests",
  setting: "AUDIT_DIGESTS_TABLE",
  partitionKey: { name: "month", type: "S" },
  sortKey: { name: "seq", type: "N" },
  indexes: {},
  globalIndexes: [],
  appendOnly: true,
} as const satisfies TableDefinition;

/**
 * Usage: `pk = APP#<app_id>`, `sk = DAY#<YYYY-MM-DD>` holds one counter per outcome, added to by
 * the change stream as verifications reach their final state; `pk = VER#<verification_id>`,
 * `sk = COUNTED` marks one as counted, so a change seen twice is counted once (kept 7 days);
 * `pk = REQ#<request_id>`, `sk = REQUEST` is the public API's request log, what the portal's
 * lookup finds by request id and lists by app (kept 30 days).
 */
const USAGE_INDEXES = {
  // Sparse: only kept requests carry request_app_id, so an app's requests list in time order.
  requestsByApp: {
    indexName: "requests_by_app",
    partitionKey: { name: "request_app_id", type: "S" },
    sortKey: { name: "requested_at", type: "S" },
    addedInStep: 1,
  },
} as const satisfies Record<string, IndexDefinition>;

export const USAGE_TABLE = {
  id: "Usage",
  setting: "USAGE_TABLE",
  partitionKey: { name: "pk", type: "S" },
  sortKey: { name: "sk", type: "S" },
  indexes: USAGE_INDEXES,
  globalIndexes: Object.values(USAGE_INDEXES),
  ttlAttribute: "expires_at_epoch",
} as const satisfies TableDefinition;

export const TABLES: readonly TableDefinition[] = [
  APPS_TABLE,
  VERIFICATIONS_TABLE,
  IDEMPOTENCY_TABLE,
  EVENTS_TABLE,
  AUDIT_TABLE,
  AUDIT_DIGESTS_TABLE,
  USAGE_TABLE,
];
