import { DESTINATIONS, ENVIRONMENTS } from "../domain/environments.ts";
import { EDEVLET_PROTOCOLS, ISSUERS } from "../domain/issuer.ts";
import * as z from "../domain/zod.ts";

/**
 * Every setting a function may read from its environment. Each function declares the ones
 * it uses (`functions/<name>.ts`), so a missing variable fails at cold start, not in the middle of a
 * request, and the stack sets exactly those.
 */
const settings = {
  ENVIRONMENT: z.enum(ENVIRONMENTS),
  APPS_TABLE: z.string().check(z.minLength(1)),
  VERIFICATIONS_TABLE: z.string().check(z.minLength(1)),
  IDEMPOTENCY_TABLE: z.string().check(z.minLength(1)),
  EVENTS_TABLE: z.string().check(z.minLength(1)),
  AUDIT_TABLE: z.string().check(z.minLength(1)),
  AUDIT_DIGESTS_TABLE: z.string().check(z.minLength(1)),
  USAGE_TABLE: z.string().check(z.minLength(1)),
  UPLOADS_BUCKET: z.string().check(z.minLength(1)),
  /** Days a verification record is kept after its creation before the table's TTL deletes it. */
  VERIFICATION_RETENTION_DAYS: z.string().check(z.regex(/^[1-9]\d{0,3}$/)),
  /** Key material that seals webhook secrets at rest (see SecretBox): at least 32 characters. */
  SECRETS_KEY: z.optional(z.string().check(z.minLength(32))),
  /** In AWS: the Secrets Manager secret that holds that key material, read at first use. */
  SECRETS_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The KMS key that seals webhook secrets (the retired key above only opens older values). */
  SEALING_KEY_ID: z.string().check(z.minLength(1)),
  /** The KMS key that seals the identity number sent with a verification by its keys, until the lookup answers. */
  IDENTITY_KEY_ID: z.string().check(z.minLength(1)),
  /** The KMS HMAC key an expected identity number is kept as the digest of (`expected_subject.identity_number`). */
  SUBJECT_KEY_ID: z.string().check(z.minLength(1)),
  /** The KMS key (`ECC_NIST_P256`) the audit trail's digests are signed with; only the sealer may sign. */
  AUDIT_SEALING_KEY_ID: z.string().check(z.minLength(1)),
  /** Local runtime only: the local key service; in AWS the SDK finds KMS itself. */
  KMS_ENDPOINT: z.optional(z.url()),
  /** The stage's usage plan, which holds each app's own request bucket (a key named by the app). */
  USAGE_PLAN_ID: z.string().check(z.minLength(1)),
  /** Local runtime only: the local usage plan's control plane; in AWS the SDK finds API Gateway itself. */
  APIGATEWAY_ENDPOINT: z.optional(z.url()),
  /** Which issuer processing asks: e-Devlet itself, an integration on the issuer-lookup contract, or none (review). */
  ISSUER: z.enum(ISSUERS),
  /** e-Devlet's way in: the web form (the default) or the mobile endpoint. */
  EDEVLET_PROTOCOL: z.optional(z.enum(EDEVLET_PROTOCOLS)),
  /** e-Devlet's web form and mobile endpoint; e-Devlet's own by default (the sandbox and `npm start` name the simulator). */
  EDEVLET_URL: z.optional(z.url()),
  EDEVLET_MOBILE_URL: z.optional(z.url()),
  /** Seconds an unavailable issuer is asked again after the first attempt before a person decides; 900 by default. */
  ISSUER_RETRY_WINDOW_S: z.optional(z.string().check(z.regex(/^[1-9]\d{0,5}$/))),
  /** The queue every lookup waits in: its reader asks, at most the stage's issuer concurrency at once. */
  ISSUER_QUEUE_URL: z.url(),
  /** The issuer-lookup integration's base URL, when `ISSUER` is `lookup`. */
  AUTHORITY_URL: z.optional(z.url()),
  /** The bearer secret of the issuer-lookup contract (the local runtime)... */
  AUTHORITY_SECRET: z.optional(z.string().check(z.minLength(16))),
  /** ...or, in AWS, the Secrets Manager secret that holds it, read at first use. */
  AUTHORITY_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The e-Devlet simulator's certificate folders, separated by the platform's path delimiter; empty for none. */
  SIMULATOR_DOCUMENTS: z.string(),
  /** The key that signs the simulator's session cookies (the local runtime)... */
  SIMULATOR_KEY: z.optional(z.string().check(z.minLength(32))),
  /** ...or, in AWS, the Secrets Manager secret that holds it, read at first use. */
  SIMULATOR_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
  /** Milliseconds each of the simulator's step answers takes (a page, the PDF, the mobile JSON), as e-Devlet takes its time; none by default. */
  SIMULATOR_LATENCY_MS: z.optional(z.string().check(z.regex(/^\d{1,5}$/))),
  /** The staff user pool and the review console's client of it. */
  STAFF_USER_POOL_ID: z.string().check(z.regex(/^[a-z]{2}(-[a-z]+)+-\d_[0-9A-Za-z]+$/)),
  STAFF_CLIENT_ID: z.string().check(z.minLength(1)),
  /** The customer user pool (portal logins) and the portal page's client of it. */
  PORTAL_USER_POOL_ID: z.string().check(z.regex(/^[a-z]{2}(-[a-z]+)+-\d_[0-9A-Za-z]+$/)),
  PORTAL_CLIENT_ID: z.string().check(z.minLength(1)),
  /** Local runtime only: where the user pools' API and keys are served instead of Cognito's. */
  IDENTITY_ENDPOINT: z.optional(z.url()),
  /** The built web pages (the review console), beside the function's bundle. */
  WEB_ASSETS: z.string().check(z.minLength(1)),
  /**
   * Local runtime only: where webhooks may go. Absent, as in every deployed stack, it is
   * `public`; the local runtime playing sandbox sets `public-or-loopback`.
   */
  WEBHOOK_DESTINATIONS: z.optional(z.enum(DESTINATIONS)),
  /** The queue new webhook events are sent to for their first attempt. */
  DELIVERY_QUEUE_URL: z.url(),
  /** Local runtime only: the local queue service; in AWS the SDK finds SQS itself. */
  SQS_ENDPOINT: z.optional(z.url()),
  /** Local engines only: in AWS the SDK finds the regional endpoints itself. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  S3_ENDPOINT: z.optional(z.url()),
};

export type SettingName = keyof typeof settings;

/**
 * What every function that signs and sends webhooks reads: the app's destination and sealed
 * secret, the event, the sealing key (and the retired one, for secrets sealed before it), and
 * where webhooks may go.
 */
export const DELIVERING_SETTINGS = [
  "APPS_TABLE",
  "EVENTS_TABLE",
  "SECRETS_KEY_ARN",
  "SEALING_KEY_ID",
  "KMS_ENDPOINT",
  "WEBHOOK_DESTINATIONS",
] as const satisfies readonly SettingName[];

/** Whether a function may start without `name` (a local engine's endpoint, absent in AWS). */
export function isOptionalSetting(name: SettingName): boolean {
  return settings[name].safeParse(undefined).success;
}
export type Settings<K extends SettingName> = z.infer<z.ZodMiniObject<Pick<typeof settings, K>>>;

export function readSettings<K extends SettingName>(
  names: readonly K[],
  source: NodeJS.ProcessEnv = process.env,
): Settings<K> {
  const schema = z.object(Object.fromEntries(names.map((name) => [name, settings[name]])) as Pick<typeof settings, K>);
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data as Settings<K>;
}
