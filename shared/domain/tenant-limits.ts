/**
 * What one organisation (a tenant) may hold, so no tenant can use up what every tenant shares:
 * the account's API Gateway API keys and the stage's usage plan (one key per app), the customer
 * user pool, the apps table. Each limit is checked where the thing is made, atomically with it.
 */

/** Apps an organisation may own, made in the portal or given to it by ops (`orgs attach-app`). */
export const APPS_PER_ORGANIZATION = 20;

/** Live API keys per app: the key in use and the one replacing it, enough to rotate without downtime. */
export const LIVE_KEYS_PER_APP = 2;

/** Invitations of an organisation not yet accepted. */
export const PENDING_INVITES_PER_ORGANIZATION = 10;

/** People an organisation may have in the portal, owners included. */
export const MEMBERS_PER_ORGANIZATION = 25;

/**
 * What an app's people may make the service send to their destination by hand, each a POST to a
 * URL they chose: a test event, and events sent now or replayed. Beyond either, `429` with the
 * seconds to wait in Retry-After. A window starts with its first send.
 */
export const SENDING_LIMITS = {
  /** `POST /portal/v1/apps/{app_id}/webhook/test`. */
  test: { most: 1, perSeconds: 10 },
  /** `POST /portal/v1/events/{event_id}/send` and `.../replay`, together. */
  manual: { most: 60, perSeconds: 3600 },
} as const;
export type SendingKind = keyof typeof SENDING_LIMITS;
