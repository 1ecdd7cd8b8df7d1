import type { Environment } from "../domain/environments.ts";
import { FUNCTION_SETTINGS, type FunctionName } from "./function-settings.ts";
import type { KeyFamily } from "./key-families.ts";
import type { SettingName } from "./settings.ts";
import type {
  APPS_TABLE,
  AUDIT_DIGESTS_TABLE,
  AUDIT_TABLE,
  EVENTS_TABLE,
  IDEMPOTENCY_TABLE,
  USAGE_TABLE,
  VERIFICATIONS_TABLE,
} from "./tables.ts";

/**
 * Every function: its entry file, settings, timeout and access. The CDK stack deploys exactly
 * these with exactly these grants, the local runtime loads exactly these entry files.
 */

export type TableSetting =
  | "APPS_TABLE"
  | "VERIFICATIONS_TABLE"
  | "IDEMPOTENCY_TABLE"
  | "EVENTS_TABLE"
  | "AUDIT_TABLE"
  | "AUDIT_DIGESTS_TABLE"
  | "USAGE_TABLE";

/** Each table's indexes, by the names code looks them up with (`tables.ts`). */
interface IndexName {
  APPS_TABLE: keyof typeof APPS_TABLE.indexes;
  VERIFICATIONS_TABLE: keyof typeof VERIFICATIONS_TABLE.indexes;
  IDEMPOTENCY_TABLE: keyof typeof IDEMPOTENCY_TABLE.indexes;
  EVENTS_TABLE: keyof typeof EVENTS_TABLE.indexes;
  AUDIT_TABLE: keyof typeof AUDIT_TABLE.indexes;
  AUDIT_DIGESTS_TABLE: keyof typeof AUDIT_DIGESTS_TABLE.indexes;
  USAGE_TABLE: keyof typeof USAGE_TABLE.indexes;
}

export interface FunctionDefinition {
  /** Entry file, relative to the project root. */
  entry: string;
  /** The settings the function reads at cold start; the stack sets exactly these. */
  settings: readonly SettingName[];
  /** Seconds before the function is stopped. */
  timeoutSeconds: number;
  /**
   * Everything the function may do, for least-privilege grants: DynamoDB actions per table
   * (index queries included under their table) and S3 actions on the uploads bucket's objects.
   */
  access: {
    tables: Partial<Record<TableSetting, readonly `dynamodb:${string}`[]>>;
    /**
     * Where the function may touch a table only items whose partition key starts with one of
     * these (`dynamodb:LeadingKeys`), so a compromised function reads nothing else.
     */
    leadingKeys?: Partial<Record<TableSetting, readonly KeyFamily[]>>;
    /**
     * The indexes the function queries, where it names them: its `Query` reaches those and
     * nothing else (not the table, not its other indexes). Without it, every index of the table.
     */
    queries?: { readonly [S in TableSetting]?: readonly IndexName[S][] };
    /**
     * Where the function's `UpdateItem` on a table may set only these attributes (IAM's
     * `dynamodb:Attributes`, with the partition key), answering nothing back.
     */
    updatedAttributes?: Partial<Record<TableSetting, readonly string[]>>;
    uploads: readonly `s3:${string}`[];
    /** Asks this user pool about a token's user (`GetUser` needs no IAM grant: the token is the credential). */
    userPool?: "staff" | "portal";
    /** What it does to users of the customer pool: an owner inviting, removing or disabling their people. */
    portalUserAdmin?: readonly `cognito-idp:Admin${string}`[];
    /** Reads the retired Secrets Manager key material (`SECRETS_KEY_ARN`), to open values sealed before KMS. */
    secretsKey?: boolean;
    /**
     * The KMS sealing key (`SEALING_KEY_ID`): `encrypt` seals new secrets and cannot open any;
     * `decrypt` opens them, for signing deliveries. Always with an app id as encryption context.
     */
    sealing?: "encrypt" | "decrypt";
    /**
     * The identity key (`IDENTITY_KEY_ID`), which seals the identity number sent with a
     * verification by its keys: `seal` on create, `open` for the lookup. Always with the app and
     * the verification as encryption context.
     */
    identitySealing?: "seal" | "open";
    /** Digests expected identity numbers with the KMS HMAC key (`SUBJECT_KEY_ID`). */
    subjectDigest?: true;
    /** Signs the audit trail's digests with the KMS sealing key (`AUDIT_SEALING_KEY_ID`): one function, the sealer. */
    auditSealing?: true;
    /** Gives new apps their own request bucket: a key in the stage's usage plan (`USAGE_PLAN_ID`). */
    appLimits?: "register";
    /** The delivery queue: `send` new events to it (`DELIVERY_QUEUE_URL`), or `receive` them as its reader. */
    deliveryQueue?: "send" | "receive";
    /**
     * The issuer: `ask` reads the issuer queue, runs the checks and asks (e-Devlet, or the
     * issuer-lookup contract's integration and its bearer secret), sending its own retries back to
     * the queue; `schedule` only sends a verification's checks or first lookup to the queue.
     */
    issuer?: "ask" | "schedule";
    /** The e-Devlet simulator: its bundle carries the published test certificates. */
    simulator?: true;
  };
  /** The environments whose stacks deploy it; all when absent. */
  deployedIn?: readonly Environment[];
}

/**
 * What a function that records people's actions may do in the audit table: add a record (a put,
 * never an update or delete); never read it, never touch the digests that seal it.
 */
const AUDITED = ["dynamodb:PutItem"] as const;

/** Every public route keeps its requests in the usage table's request log, and touches nothing else there. */
const KEEPS_REQUESTS = ["dynamodb:PutItem"] as const;
const REQUEST_LOG_ONLY = { USAGE_TABLE: ["requests"] } as const;

export const FUNCTIONS = {
  authorizer: {
    entry: "functions/authorizer.ts",
    settings: FUNCTION_SETTINGS.authorizer,
    timeoutSeconds: 10,
    // A key's item holds what the decision needs: the authorizer reads key items and nothing else,
    // and writes one attribute of them, the key's last use (at most once a minute per key).
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"] },
      leadingKeys: { APPS_TABLE: ["apiKeys"] },
      updatedAttributes: { APPS_TABLE: ["last_used_at"] },
      uploads: [],
    },
  },
  "create-verification": {
    entry: "functions/create-verification.ts",
    settings: FUNCTION_SETTINGS["create-verification"],
    timeoutSeconds: 29,
    access: {
      tables: {
        // DeleteItem: a create whose result cannot be saved removes the verification it wrote;
        // GetItem: a replay reads the personal fields (or the erasure) from the verification.
        VERIFICATIONS_TABLE: ["dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:GetItem"],
        IDEMPOTENCY_TABLE: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
        USAGE_TABLE: KEEPS_REQUESTS,
      },
      leadingKeys: REQUEST_LOG_ONLY,
      // Presigning signs with the function's own credentials: they must allow the PUT.
      uploads: ["s3:PutObject"],
      // A verification by its keys: its identity number sealed; an expected one digested.
      identitySealing: "seal",
      subjectDigest: true,
    },
  },
  "confirm-upload": {
    entry: "functions/confirm-upload.ts",
    settings: FUNCTION_SETTINGS["confirm-upload"],
    timeoutSeconds: 29,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], USAGE_TABLE: KEEPS_REQUESTS },
      leadingKeys: REQUEST_LOG_ONLY,
      // HeadObject and ranged GetObject both need s3:GetObject; a sync confirm processes (the
      // issuer's copy is written by the issuer queue's reader, which it waits for).
      uploads: ["s3:GetObject", "s3:DeleteObject"],
      issuer: "schedule",
      subjectDigest: true,
    },
  },
  "on-verification-change": {
    entry: "functions/on-verification-change.ts",
    settings: FUNCTION_SETTINGS["on-verification-change"],
    // With no issuer configured, the checks on a 10 MiB document per record of a batch; no customer
    // endpoint and no issuer is called here.
    timeoutSeconds: 120,
    access: {
      tables: {
        VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
        // Query: an erased verification's events, whose bodies it rewrites.
        EVENTS_TABLE: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
        // A counter and the mark that the verification is counted, in one transaction.
        USAGE_TABLE: ["dynamodb:PutItem", "dynamodb:UpdateItem"],
      },
      // The upload (pinned now if it was confirmed before uploads were pinned) and, once the issuer
      // answered, its copy, which the issuer queue's reader keeps.
      uploads: ["s3:GetObject", "s3:PutObject"],
      issuer: "schedule",
      deliveryQueue: "send",
      subjectDigest: true,
    },
  },
  "ask-issuer": {
    entry: "functions/ask-issuer.ts",
    settings: FUNCTION_SETTINGS["ask-issuer"],
    // One lookup (15 s at most) and the checks on a 10 MiB document around it.
    timeoutSeconds: 60,
    access: {
      // Its lookups' state on the verification, and the decision once an answer is recorded.
      tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"] },
      // The upload it reads the keys from, and the issuer's copy it keeps beside it.
      uploads: ["s3:GetObject", "s3:PutObject"],
      issuer: "ask",
      // Opens the identity number of a verification by its keys, for its lookup only.
      identitySealing: "open",
      subjectDigest: true,
    },
  },
  "deliver-webhooks": {
    entry: "functions/deliver-webhooks.ts",
    settings: FUNCTION_SETTINGS["deliver-webhooks"],
    // A batch's attempts run side by side, each stopped at the delivery timeout (10 s).
    timeoutSeconds: 30,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem"],
        // The event, its claim, and the attempt recorded with what follows it (a transaction).
        EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:PutItem"],
      },
      uploads: [],
      secretsKey: true,
      sealing: "decrypt",
      deliveryQueue: "receive",
    },
  },
  tick: {
    entry: "functions/tick.ts",
    settings: FUNCTION_SETTINGS.tick,
    timeoutSeconds: 300,
    access: {
      tables: {
        VERIFICATIONS_TABLE: ["dynamodb:Query", "dynamodb:UpdateItem"],
        APPS_TABLE: ["dynamodb:GetItem"],
        EVENTS_TABLE: ["dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:PutItem"],
      },
      // Overdue uploads and reviews, recent erasures, and due deliveries: sparse indexes, never the tables.
      queries: {
        VERIFICATIONS_TABLE: ["awaitingByDeadline", "inReviewByDeadline", "erasedByTime"],
        EVENTS_TABLE: ["dueDeliveries"],
      },
      // A document put back through an old upload URL after its verification was erased: found, removed.
      uploads: ["s3:GetObject", "s3:DeleteObject"],
      secretsKey: true,
      sealing: "decrypt",
    },
  },
  "get-verification": {
    entry: "functions/get-verification.ts",
    settings: FUNCTION_SETTINGS["get-verification"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem"], USAGE_TABLE: KEEPS_REQUESTS },
      leadingKeys: REQUEST_LOG_ONLY,
      uploads: ["s3:PutObject"],
    },
  },
  "erase-verification": {
    entry: "functions/erase-verification.ts",
    settings: FUNCTION_SETTINGS["erase-verification"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], USAGE_TABLE: KEEPS_REQUESTS },
      leadingKeys: REQUEST_LOG_ONLY,
      // The upload, its pinned copy and the issuer's copy.
      uploads: ["s3:DeleteObject"],
    },
  },
  "list-verifications": {
    entry: "functions/list-verifications.ts",
    settings: FUNCTION_SETTINGS["list-verifications"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:Query"], USAGE_TABLE: KEEPS_REQUESTS },
      leadingKeys: REQUEST_LOG_ONLY,
      uploads: [],
    },
  },
  "list-events": {
    entry: "functions/list-events.ts",
    settings: FUNCTION_SETTINGS["list-events"],
    timeoutSeconds: 10,
    access: {
      tables: { EVENTS_TABLE: ["dynamodb:Query"], USAGE_TABLE: KEEPS_REQUESTS },
      leadingKeys: REQUEST_LOG_ONLY,
      uploads: [],
    },
  },
  "edevlet-simulator": {
    entry: "functions/edevlet-simulator.ts",
    settings: FUNCTION_SETTINGS["edevlet-simulator"],
    // A slow answer is held past the adapter's 15 s budget.
    timeoutSeconds: 25,
    access: { tables: {}, uploads: [], simulator: true },
    // e-Devlet's barcode verification as the sandbox's issuer, holding the published test certificates.
    deployedIn: ["sandbox"],
  },
  // The backoffice: staff review what could not be decided automatically.
  "staff-authorizer": {
    entry: "functions/staff-authorizer.ts",
    settings: FUNCTION_SETTINGS["staff-authorizer"],
    timeoutSeconds: 10,
    access: { tables: {}, uploads: [], userPool: "staff" },
  },
  "backoffice-console": {
    entry: "functions/backoffice-console.ts",
    settings: FUNCTION_SETTINGS["backoffice-console"],
    timeoutSeconds: 10,
    access: { tables: {}, uploads: [] },
  },
  "list-reviews": {
    entry: "functions/list-reviews.ts",
    settings: FUNCTION_SETTINGS["list-reviews"],
    timeoutSeconds: 10,
    // The queue from the review-deadline index, and each app's name on the page.
    access: { tables: { VERIFICATIONS_TABLE: ["dynamodb:Query"], APPS_TABLE: ["dynamodb:GetItem"] }, uploads: [] },
  },
  "claim-review": {
    entry: "functions/claim-review.ts",
    settings: FUNCTION_SETTINGS["claim-review"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:UpdateItem", "dynamodb:GetItem"], AUDIT_TABLE: AUDITED },
      uploads: [],
    },
  },
  "decide-review": {
    entry: "functions/decide-review.ts",
    settings: FUNCTION_SETTINGS["decide-review"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:UpdateItem", "dynamodb:GetItem"], AUDIT_TABLE: AUDITED },
      // Which copies exist, for the answer.
      uploads: ["s3:GetObject"],
    },
  },
  "inspect-verification": {
    entry: "functions/inspect-verification.ts",
    settings: FUNCTION_SETTINGS["inspect-verification"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem"], AUDIT_TABLE: AUDITED },
      uploads: ["s3:GetObject"],
    },
  },
  "view-document": {
    entry: "functions/view-document.ts",
    settings: FUNCTION_SETTINGS["view-document"],
    timeoutSeconds: 10,
    access: {
      tables: { VERIFICATIONS_TABLE: ["dynamodb:GetItem"], AUDIT_TABLE: AUDITED },
      // HeadObject to know the copy exists; the presigned GET is signed with these credentials.
      uploads: ["s3:GetObject"],
    },
  },
  "read-audit": {
    entry: "functions/read-audit.ts",
    settings: FUNCTION_SETTINGS["read-audit"],
    timeoutSeconds: 10,
    // Reading the trail is itself recorded.
    access: { tables: { AUDIT_TABLE: ["dynamodb:Query", ...AUDITED] }, uploads: [] },
  },
  // Every few minutes: seals the records written since the last digest (`use-cases/audit/seal.ts`).
  // The one role that may sign a digest and put it; it reads the records and never writes one.
  "seal-audit": {
    entry: "functions/seal-audit.ts",
    settings: FUNCTION_SETTINGS["seal-audit"],
    timeoutSeconds: 300,
    access: {
      tables: { AUDIT_TABLE: ["dynamodb:Query"], AUDIT_DIGESTS_TABLE: ["dynamodb:Query", "dynamodb:PutItem"] },
      uploads: [],
      auditSealing: true,
    },
  },
  // The customer portal: an organisation's people manage its apps and look things up.
  "portal-authorizer": {
    entry: "functions/portal-authorizer.ts",
    settings: FUNCTION_SETTINGS["portal-authorizer"],
    timeoutSeconds: 10,
    // The caller's membership: which organisation, which role.
    access: { tables: { APPS_TABLE: ["dynamodb:GetItem"] }, uploads: [], userPool: "portal" },
  },
  "portal-page": {
    entry: "functions/portal-page.ts",
    settings: FUNCTION_SETTINGS["portal-page"],
    timeoutSeconds: 10,
    access: { tables: {}, uploads: [] },
  },
  "who-am-i": {
    entry: "functions/who-am-i.ts",
    settings: FUNCTION_SETTINGS["who-am-i"],
    timeoutSeconds: 10,
    // Query: the apps of an organisation stored before apps were counted, counted once.
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"] },
      queries: { APPS_TABLE: ["appsByOrganization"] },
      uploads: [],
    },
  },
  "list-apps": {
    entry: "functions/list-apps.ts",
    settings: FUNCTION_SETTINGS["list-apps"],
    timeoutSeconds: 10,
    // The organisation's apps and each app's keys, from their indexes.
    access: { tables: { APPS_TABLE: ["dynamodb:Query"] }, uploads: [] },
  },
  "create-app": {
    entry: "functions/create-app.ts",
    settings: FUNCTION_SETTINGS["create-app"],
    timeoutSeconds: 10,
    access: {
      // The organisation's app count, read and taken with the app (UpdateItem); Query: the apps of
      // an organisation stored before apps were counted, counted once.
      tables: {
        APPS_TABLE: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:Query"],
        AUDIT_TABLE: AUDITED,
      },
      queries: { APPS_TABLE: ["appsByOrganization"] },
      uploads: [],
      sealing: "encrypt",
      appLimits: "register",
    },
  },
  "rotate-key": {
    entry: "functions/rotate-key.ts",
    settings: FUNCTION_SETTINGS["rotate-key"],
    timeoutSeconds: 10,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
        AUDIT_TABLE: AUDITED,
      },
      uploads: [],
    },
  },
  "revoke-key": {
    entry: "functions/revoke-key.ts",
    settings: FUNCTION_SETTINGS["revoke-key"],
    timeoutSeconds: 10,
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], AUDIT_TABLE: AUDITED },
      uploads: [],
    },
  },
  "rename-key": {
    entry: "functions/rename-key.ts",
    settings: FUNCTION_SETTINGS["rename-key"],
    timeoutSeconds: 10,
    access: {
      // Query: the app's keys by the keys_by_app index, to find the one named.
      tables: {
        APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem"],
        AUDIT_TABLE: AUDITED,
      },
      queries: { APPS_TABLE: ["keysByApp"] },
      uploads: [],
    },
  },
  "set-webhook": {
    entry: "functions/set-webhook.ts",
    settings: FUNCTION_SETTINGS["set-webhook"],
    timeoutSeconds: 10,
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], AUDIT_TABLE: AUDITED },
      uploads: [],
    },
  },
  "rotate-webhook-secret": {
    entry: "functions/rotate-webhook-secret.ts",
    settings: FUNCTION_SETTINGS["rotate-webhook-secret"],
    timeoutSeconds: 10,
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"], AUDIT_TABLE: AUDITED },
      uploads: [],
      sealing: "encrypt",
    },
  },
  "test-webhook": {
    entry: "functions/test-webhook.ts",
    settings: FUNCTION_SETTINGS["test-webhook"],
    // One delivery attempt (10 s) while the caller waits.
    timeoutSeconds: 29,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem"],
        // The event, its attempt, and the app's sends by hand (`SENDING_LIMITS`).
        EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"],
        AUDIT_TABLE: AUDITED,
      },
      uploads: [],
      secretsKey: true,
      sealing: "decrypt",
    },
  },
  "list-deliveries": {
    entry: "functions/list-deliveries.ts",
    settings: FUNCTION_SETTINGS["list-deliveries"],
    timeoutSeconds: 10,
    access: { tables: { APPS_TABLE: ["dynamodb:GetItem"], EVENTS_TABLE: ["dynamodb:Query"] }, uploads: [] },
  },
  "replay-event": {
    entry: "functions/replay-event.ts",
    settings: FUNCTION_SETTINGS["replay-event"],
    timeoutSeconds: 10,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem"],
        EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
        AUDIT_TABLE: AUDITED,
      },
      uploads: [],
    },
  },
  "send-event": {
    entry: "functions/send-event.ts",
    settings: FUNCTION_SETTINGS["send-event"],
    timeoutSeconds: 10,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem"],
        EVENTS_TABLE: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
        AUDIT_TABLE: AUDITED,
      },
      uploads: [],
    },
  },
  "list-app-events": {
    entry: "functions/list-app-events.ts",
    settings: FUNCTION_SETTINGS["list-app-events"],
    timeoutSeconds: 10,
    // Query: the app's events by their index, and each event's attempts in its own partition.
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem"], EVENTS_TABLE: ["dynamodb:Query"], AUDIT_TABLE: AUDITED },
      uploads: [],
    },
  },
  "lookup-verifications": {
    entry: "functions/lookup-verifications.ts",
    settings: FUNCTION_SETTINGS["lookup-verifications"],
    timeoutSeconds: 10,
    access: {
      tables: {
        // The organisation's apps by their index; a verification by its id, an app's by their indexes.
        APPS_TABLE: ["dynamodb:Query"],
        VERIFICATIONS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"],
        AUDIT_TABLE: AUDITED,
        // A request by its id, from the public API's request log.
        USAGE_TABLE: ["dynamodb:GetItem"],
      },
      leadingKeys: REQUEST_LOG_ONLY,
      queries: { APPS_TABLE: ["appsByOrganization"] },
      uploads: [],
    },
  },
  "search-verifications": {
    entry: "functions/search-verifications.ts",
    settings: FUNCTION_SETTINGS["search-verifications"],
    timeoutSeconds: 10,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem"],
        VERIFICATIONS_TABLE: ["dynamodb:Query"],
        AUDIT_TABLE: AUDITED,
      },
      uploads: [],
    },
  },
  "view-verification": {
    entry: "functions/view-verification.ts",
    settings: FUNCTION_SETTINGS["view-verification"],
    timeoutSeconds: 10,
    access: {
      tables: {
        APPS_TABLE: ["dynamodb:GetItem"],
        VERIFICATIONS_TABLE: ["dynamodb:GetItem"],
        AUDIT_TABLE: AUDITED,
      },
      uploads: [],
    },
  },
  "list-members": {
    entry: "functions/list-members.ts",
    settings: FUNCTION_SETTINGS["list-members"],
    timeoutSeconds: 10,
    access: { tables: { APPS_TABLE: ["dynamodb:Query"] }, uploads: [] },
  },
  "invite-member": {
    entry: "functions/invite-member.ts",
    settings: FUNCTION_SETTINGS["invite-member"],
    timeoutSeconds: 10,
    access: {
      // The membership and the organisation's member place in one write; its pending invitations
      // from the members index, each found joined recorded so; memberships left under the
      // username by a deleted user, from the username index, each deleted with its record.
      tables: {
        APPS_TABLE: [
          "dynamodb:GetItem",
          "dynamodb:PutItem",
          "dynamodb:UpdateItem",
          "dynamodb:DeleteItem",
          "dynamodb:Query",
        ],
        AUDIT_TABLE: AUDITED,
      },
      queries: { APPS_TABLE: ["membersByOrganization", "membersByUsername"] },
      uploads: [],
      // The invitee made (and taken away again when the last place went to another invite
      // meanwhile), and whether each pending invitee has signed in.
      portalUserAdmin: [
        "cognito-idp:AdminCreateUser",
        "cognito-idp:AdminGetUser",
        "cognito-idp:AdminUserGlobalSignOut",
        "cognito-idp:AdminDeleteUser",
      ],
    },
  },
  "get-member": {
    entry: "functions/get-member.ts",
    settings: FUNCTION_SETTINGS["get-member"],
    timeoutSeconds: 10,
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"] },
      queries: { APPS_TABLE: ["membersByOrganization"] },
      uploads: [],
    },
  },
  "change-member-role": {
    entry: "functions/change-member-role.ts",
    settings: FUNCTION_SETTINGS["change-member-role"],
    timeoutSeconds: 10,
    access: {
      // The member by username (its index), the organisation's other owners, and the change with its record.
      tables: {
        APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:ConditionCheckItem"],
        AUDIT_TABLE: AUDITED,
      },
      queries: { APPS_TABLE: ["membersByOrganization"] },
      uploads: [],
    },
  },
  "remove-member": {
    entry: "functions/remove-member.ts",
    settings: FUNCTION_SETTINGS["remove-member"],
    timeoutSeconds: 10,
    access: {
      tables: {
        APPS_TABLE: [
          "dynamodb:GetItem",
          "dynamodb:Query",
          "dynamodb:DeleteItem",
          "dynamodb:UpdateItem",
          "dynamodb:ConditionCheckItem",
        ],
        AUDIT_TABLE: AUDITED,
      },
      queries: { APPS_TABLE: ["membersByOrganization"] },
      uploads: [],
      // Every session of theirs ended, then the user deleted: the username is free again.
      portalUserAdmin: ["cognito-idp:AdminUserGlobalSignOut", "cognito-idp:AdminDeleteUser"],
    },
  },
  "read-usage": {
    entry: "functions/read-usage.ts",
    settings: FUNCTION_SETTINGS["read-usage"],
    timeoutSeconds: 10,
    access: {
      tables: { APPS_TABLE: ["dynamodb:GetItem", "dynamodb:Query"], USAGE_TABLE: ["dynamodb:Query"] },
      uploads: [],
    },
  },
} as const satisfies Record<FunctionName, FunctionDefinition>;

export type { FunctionName };
