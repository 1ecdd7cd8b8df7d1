import type { AppItem, AppStatus } from "../../domain/apps.ts";
import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { displayPrefix, generateApiKey, generateWebhookSecret, hashApiKey } from "../../domain/credentials.ts";
import type { Destinations, Environment } from "../../domain/environments.ts";
import { InvalidInputError, LimitReachedError, RefusedError } from "../../domain/errors.ts";
import { newId } from "../../domain/ids.ts";
import { APPS_PER_ORGANIZATION } from "../../domain/tenant-limits.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { AppLimits } from "../../ports/app-limits.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Sealer } from "../../ports/sealer.ts";
import { checkWebhookUrl } from "../webhooks/destination.ts";
import { checkKeyName, type KeyView, keyView } from "./keys.ts";
import { appNotFound, requireApp } from "./require-app.ts";
import { retryWhenStale } from "./retry-when-stale.ts";

export interface NewApp {
  app_id: string;
  name: string;
  environment: Environment;
  /** Shown once; only its hash is stored. */
  api_key: string;
  /** What operators see of the key later. */
  key_prefix: string;
  /** Shown once; stored sealed. */
  webhook_secret: string;
  webhook_url: string | null;
}

const MAX_NAME_LENGTH = 100;

/** The app name rule: 1 to 100 printable characters, surrounding spaces dropped. */
export function checkAppName(name: string): string {
  const trimmed = name.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new InvalidInputError("invalid_input", `An app name has 1 to ${MAX_NAME_LENGTH} printable characters`);
  }
  return trimmed;
}

export interface NewAppInput {
  name: string;
  environment: Environment;
  webhookUrl?: string;
  /** The organisation that will own the app and see it in the portal. */
  organizationId?: string;
  /** A name for its first key. */
  keyName?: string;
}

/**
 * The rules for a new app, without touching anything: a printable name, an allowed webhook URL,
 * and, when `tableEnvironment` is known, the same environment as the table. Returns the input
 * normalized.
 */
function checkNewApp(
  tableEnvironment: Environment | undefined,
  destinations: Destinations,
  input: NewAppInput,
): NewAppInput {
  if (tableEnvironment && tableEnvironment !== input.environment) {
    throw new RefusedError(
      "environment_mismatch",
      `A ${input.environment} app cannot be created in the ${tableEnvironment} environment`,
    );
  }
  return {
    name: checkAppName(input.name),
    environment: input.environment,
    webhookUrl: input.webhookUrl === undefined ? undefined : checkWebhookUrl(input.webhookUrl, destinations),
    organizationId: input.organizationId,
    keyName: input.keyName === undefined ? undefined : checkKeyName(input.keyName),
  };
}

/** The refusal of an app beyond what an organisation may own. */
export function tooManyApps(): LimitReachedError {
  return new LimitReachedError(
    { name: "apps_per_organization", max: APPS_PER_ORGANIZATION },
    `The organisation already has ${APPS_PER_ORGANIZATION} apps, the most an organisation may have; use one of them, or contact support`,
  );
}

/**
 * Creates a client app with its first API key and its webhook signing secret. `deps.environment`,
 * when given, is the environment whose table `deps.apps` is: an app of another is refused.
 */
export async function createApp(
  deps: {
    apps: Pick<AppStore, "createWithKey">;
    sealer: Sealer;
    limits: Pick<AppLimits, "register">;
    clock: Clock;
    environment?: Environment;
    destinations: Destinations;
  },
  input: NewAppInput,
  /** Who creates it: the app is written with the record of it. */
  by?: AuditContext,
): Promise<NewApp> {
  // Every rule before the sealing key is used (a KMS call when deployed).
  const { name, webhookUrl, organizationId, keyName } = checkNewApp(deps.environment, deps.destinations, input);
  const appId = newId("app");
  const webhookSecret = generateWebhookSecret();
  const webhookSecretSealed = await deps.sealer.seal(webhookSecret, { appId });
  const at = deps.clock.now();
  const now = isoSeconds(at);
  const apiKey = generateApiKey(input.environment);
  const firstKey = hashApiKey(apiKey);
  const created = await deps.apps.createWithKey(
    {
      kind: "app",
      app_id: appId,
      name,
      environment: input.environment,
      status: "active",
      ...(organizationId ? { organization_id: organizationId } : {}),
      webhook_url: webhookUrl,
      webhook_secret_sealed: webhookSecretSealed,
      key_hashes: [firstKey],
      key_version: 1,
      created_at: now,
      updated_at: now,
    },
    {
      key_hash: firstKey,
      kind: "key",
      key_app_id: appId,
      environment: input.environment,
      prefix: displayPrefix(apiKey),
      ...(keyName === undefined ? {} : { name: keyName }),
      app_status: "active",
      created_at: now,
    },
    by && auditRecord(by, at, { action: "app.created", app_id: appId }),
    APPS_PER_ORGANIZATION,
  );
  if (!created) throw tooManyApps();
  // Only a stored app gets its request bucket (a key in the account's usage plan), and before
  // its key is shown, so its first request is served. An interrupted registration leaves the app
  // answered 503 until `ops apps sync-limits` (the AppsWithoutLimits alarm says so).
  await deps.limits.register(appId);
  return {
    app_id: appId,
    name,
    environment: input.environment,
    api_key: apiKey,
    key_prefix: displayPrefix(apiKey),
    webhook_secret: webhookSecret,
    webhook_url: webhookUrl ?? null,
  };
}

/** An app as operators see it: no secret, sealed or not. */
export interface AppView {
  app_id: string;
  name: string;
  environment: Environment;
  status: AppStatus;
  webhook_url: string | null;
  /** Set while events are also signed with the secret before the last rotation. */
  previous_webhook_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export function appView(app: AppItem, now: string): AppView {
  const previous = app.previous_webhook_secret_expires_at;
  return {
    app_id: app.app_id,
    name: app.name,
    environment: app.environment,
    status: app.status,
    webhook_url: app.webhook_url ?? null,
    previous_webhook_secret_expires_at: previous && previous > now ? previous : null,
    created_at: app.created_at,
    updated_at: app.updated_at,
  };
}

export async function listApps(deps: { apps: Pick<AppStore, "listApps">; clock: Clock }): Promise<AppView[]> {
  const now = isoSeconds(deps.clock.now());
  return (await deps.apps.listApps()).map((app) => appView(app, now));
}

export async function showApp(
  deps: { apps: Pick<AppStore, "getApp" | "listKeys">; clock: Clock },
  appId: string,
): Promise<AppWithKeys> {
  const app = await requireApp(deps.apps, appId);
  return appWithKeys(deps.apps, app, isoSeconds(deps.clock.now()));
}

export type AppWithKeys = AppView & { keys: KeyView[] };

/** An app as operators and portal users see it: its view and every key's, at `now`. */
export async function appWithKeys(apps: Pick<AppStore, "listKeys">, app: AppItem, now: string): Promise<AppWithKeys> {
  return { ...appView(app, now), keys: (await apps.listKeys(app.app_id)).map((key) => keyView(key, now)) };
}

/** Enables or disables an app; its keys answer 403 app_disabled while it is disabled. */
export async function setAppStatus(
  deps: { apps: Pick<AppStore, "setStatus">; clock: Clock },
  input: { appId: string; status: AppStatus },
  by?: AuditContext,
): Promise<AppView> {
  return retryWhenStale(async () => {
    const at = deps.clock.now();
    const now = isoSeconds(at);
    const action = input.status === "disabled" ? "app.disabled" : "app.enabled";
    const app = await deps.apps.setStatus(
      input.appId,
      input.status,
      now,
      by && auditRecord(by, at, { action, app_id: input.appId }),
    );
    if (!app) throw appNotFound(input.appId);
    return appView(app, now);
  });
}

/** What a sync of the apps' request buckets did. */
export interface LimitsSync {
  /** Apps given their bucket now. */
  registered: string[];
  /** Apps that had one already. */
  unchanged: number;
}

/**
 * Gives every app of the table that has no request bucket its own (apps made before buckets
 * existed, or whose registration was interrupted). Running it again changes nothing.
 */
export async function syncAppLimits(deps: {
  apps: Pick<AppStore, "listApps">;
  limits: AppLimits;
}): Promise<LimitsSync> {
  const [apps, registered] = await Promise.all([deps.apps.listApps(), deps.limits.registered()]);
  const missing = apps.filter((app) => !registered.has(app.app_id)).map((app) => app.app_id);
  // One at a time: API Gateway takes about five key creations a second per account.
  for (const appId of missing) await deps.limits.register(appId);
  return { registered: missing, unchanged: apps.length - missing.length };
}
