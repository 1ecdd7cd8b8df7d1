import type { SettingName } from "./settings.ts";

/**
 * What each function reads from its environment at cold start: the stack sets exactly these, and
 * a function's configuration refuses any other. The rest of a function's declaration (its entry,
 * timeout and grants, `functions.ts`) is read by the stack, the local runtime and the tests; this
 * is what a function's own bundle carries of it.
 */

/**
 * What every function that signs and sends webhooks reads: the app's destination and sealed
 * secret, the event, the sealing key (and the retired one, for secrets sealed before it), and
 * where webhooks may go.
 */
const DELIVERING_SETTINGS = [
  "APPS_TABLE",
  "EVENTS_TABLE",
  "SECRETS_KEY_ARN",
  "SEALING_KEY_ID",
  "KMS_ENDPOINT",
  "WEBHOOK_DESTINATIONS",
] as const satisfies readonly SettingName[];

export const FUNCTION_SETTINGS = {
  authorizer: ["ENVIRONMENT", "APPS_TABLE"],
  "create-verification": [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "IDEMPOTENCY_TABLE",
    "USAGE_TABLE",
    "UPLOADS_BUCKET",
    "VERIFICATION_RETENTION_DAYS",
    "IDENTITY_KEY_ID",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  "confirm-upload": [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "USAGE_TABLE",
    "UPLOADS_BUCKET",
    "ISSUER",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  "on-verification-change": [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "UPLOADS_BUCKET",
    "EVENTS_TABLE",
    "USAGE_TABLE",
    "DELIVERY_QUEUE_URL",
    "ISSUER",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  "ask-issuer": [
    "ENVIRONMENT",
    "VERIFICATIONS_TABLE",
    "UPLOADS_BUCKET",
    "ISSUER",
    "EDEVLET_PROTOCOL",
    "EDEVLET_URL",
    "EDEVLET_MOBILE_URL",
    "AUTHORITY_URL",
    "AUTHORITY_SECRET",
    "AUTHORITY_SECRET_ARN",
    "ISSUER_RETRY_WINDOW_S",
    "ISSUER_QUEUE_URL",
    "SQS_ENDPOINT",
    "IDENTITY_KEY_ID",
    "SUBJECT_KEY_ID",
    "KMS_ENDPOINT",
  ],
  "deliver-webhooks": DELIVERING_SETTINGS,
  // The canary asks e-Devlet's web form (ISSUER, EDEVLET_URL) every 15 minutes.
  tick: ["ENVIRONMENT", "VERIFICATIONS_TABLE", "UPLOADS_BUCKET", "ISSUER", "EDEVLET_URL", ...DELIVERING_SETTINGS],
  "get-verification": ["ENVIRONMENT", "VERIFICATIONS_TABLE", "UPLOADS_BUCKET", "USAGE_TABLE"],
  "erase-verification": ["VERIFICATIONS_TABLE", "UPLOADS_BUCKET", "USAGE_TABLE"],
  "list-verifications": ["VERIFICATIONS_TABLE", "USAGE_TABLE"],
  "list-events": ["EVENTS_TABLE", "USAGE_TABLE"],
  "edevlet-simulator": ["SIMULATOR_DOCUMENTS", "SIMULATOR_KEY", "SIMULATOR_KEY_ARN", "SIMULATOR_LATENCY_MS"],
  "staff-authorizer": ["STAFF_USER_POOL_ID", "STAFF_CLIENT_ID", "IDENTITY_ENDPOINT"],
  "backoffice-console": ["WEB_ASSETS", "STAFF_CLIENT_ID", "IDENTITY_ENDPOINT", "UPLOADS_BUCKET", "S3_ENDPOINT"],
  "list-reviews": ["ENVIRONMENT", "VERIFICATIONS_TABLE", "APPS_TABLE"],
  "claim-review": ["VERIFICATIONS_TABLE", "AUDIT_TABLE"],
  "decide-review": ["VERIFICATIONS_TABLE", "AUDIT_TABLE", "UPLOADS_BUCKET"],
  "inspect-verification": ["VERIFICATIONS_TABLE", "AUDIT_TABLE", "UPLOADS_BUCKET"],
  "view-document": ["VERIFICATIONS_TABLE", "AUDIT_TABLE", "UPLOADS_BUCKET"],
  "read-audit": ["AUDIT_TABLE"],
  "seal-audit": ["ENVIRONMENT", "AUDIT_TABLE", "AUDIT_DIGESTS_TABLE", "AUDIT_SEALING_KEY_ID", "KMS_ENDPOINT"],
  "portal-authorizer": ["PORTAL_USER_POOL_ID", "PORTAL_CLIENT_ID", "IDENTITY_ENDPOINT", "APPS_TABLE"],
  "portal-page": ["WEB_ASSETS", "PORTAL_CLIENT_ID", "IDENTITY_ENDPOINT"],
  "who-am-i": ["APPS_TABLE"],
  "list-apps": ["APPS_TABLE"],
  "create-app": [
    "ENVIRONMENT",
    "APPS_TABLE",
    "AUDIT_TABLE",
    "SEALING_KEY_ID",
    "KMS_ENDPOINT",
    "WEBHOOK_DESTINATIONS",
    "USAGE_PLAN_ID",
    "APIGATEWAY_ENDPOINT",
  ],
  "rotate-key": ["APPS_TABLE", "AUDIT_TABLE"],
  "revoke-key": ["APPS_TABLE", "AUDIT_TABLE"],
  "rename-key": ["APPS_TABLE", "AUDIT_TABLE"],
  "set-webhook": ["APPS_TABLE", "AUDIT_TABLE", "WEBHOOK_DESTINATIONS"],
  "rotate-webhook-secret": ["APPS_TABLE", "AUDIT_TABLE", "SEALING_KEY_ID", "KMS_ENDPOINT"],
  "test-webhook": ["AUDIT_TABLE", ...DELIVERING_SETTINGS],
  "list-deliveries": ["APPS_TABLE", "EVENTS_TABLE"],
  "replay-event": ["APPS_TABLE", "EVENTS_TABLE", "AUDIT_TABLE"],
  "send-event": ["APPS_TABLE", "EVENTS_TABLE", "AUDIT_TABLE"],
  "list-app-events": ["APPS_TABLE", "EVENTS_TABLE", "AUDIT_TABLE"],
  "search-verifications": ["APPS_TABLE", "VERIFICATIONS_TABLE", "AUDIT_TABLE"],
  "lookup-verifications": ["APPS_TABLE", "VERIFICATIONS_TABLE", "AUDIT_TABLE", "USAGE_TABLE"],
  "view-verification": ["APPS_TABLE", "VERIFICATIONS_TABLE", "AUDIT_TABLE"],
  "list-members": ["APPS_TABLE"],
  "invite-member": ["APPS_TABLE", "AUDIT_TABLE", "PORTAL_USER_POOL_ID", "IDENTITY_ENDPOINT"],
  "get-member": ["APPS_TABLE"],
  "change-member-role": ["APPS_TABLE", "AUDIT_TABLE"],
  "remove-member": ["APPS_TABLE", "AUDIT_TABLE", "PORTAL_USER_POOL_ID", "IDENTITY_ENDPOINT"],
  "read-usage": ["APPS_TABLE", "USAGE_TABLE"],
} as const satisfies Record<string, readonly SettingName[]>;

export type FunctionName = keyof typeof FUNCTION_SETTINGS;
