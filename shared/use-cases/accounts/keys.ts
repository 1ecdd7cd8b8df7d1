/** API key lifecycle: rotation with a grace period, revocation, and what operators see of keys. */
import { isLiveKey, type KeyItem, keyIdOf } from "../../domain/apps.ts";
import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { displayPrefix, generateApiKey, hashApiKey } from "../../domain/credentials.ts";
import { InvalidInputError, NotFoundError, RefusedError } from "../../domain/errors.ts";
import { MAX_KEY_NAME_LENGTH } from "../../domain/portal.ts";
import { LIVE_KEYS_PER_APP } from "../../domain/tenant-limits.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import { requireApp } from "./require-app.ts";
import { retryWhenStale } from "./retry-when-stale.ts";

export const DEFAULT_GRACE_SECONDS = 24 * 3600;
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;

export type KeyStatus = "active" | "expiring" | "expired" | "revoked";

/** The key name rule: 1 to 60 printable characters, surrounding spaces dropped. */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (trimmed.length === 0 || trimmed.length > MAX_KEY_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new InvalidInputError("invalid_input", `A key name has 1 to ${MAX_KEY_NAME_LENGTH} printable characters`);
  }
  return trimmed;
}

/** A key as operators see it: never the key, never its hash. */
export interface KeyView {
  key_id: string;
  prefix: string;
  name: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  /** When the authorizer last let it pass, to the minute; null when never since it was recorded. */
  last_used_at: string | null;
  status: KeyStatus;
}

export function keyStatus(key: KeyItem, now: string): KeyStatus {
  if (key.revoked_at) return "revoked";
  if (!key.expires_at) return "active";
  return key.expires_at <= now ? "expired" : "expiring";
}

export function keyView(key: KeyItem, now: string): KeyView {
  return {
    key_id: keyIdOf(key),
    prefix: key.prefix,
    name: key.name ?? null,
    created_at: key.created_at,
    expires_at: key.expires_at ?? null,
    revoked_at: key.revoked_at ?? null,
    last_used_at: key.last_used_at ?? null,
    status: keyStatus(key, now),
  };
}

/** Every key the app ever had, oldest first. */
export async function listAppKeys(
  deps: { apps: Pick<AppStore, "getApp" | "listKeys">; clock: Clock },
  appId: string,
): Promise<KeyView[]> {
  await requireApp(deps.apps, appId);
  const now = isoSeconds(deps.clock.now());
  return (await deps.apps.listKeys(appId)).map((key) => keyView(key, now));
}

export interface RotatedKey {
  app_id: string;
  /** Shown once; only its hash is stored. */
  api_key: string;
  key: KeyView;
  /** The keys that were live before, with the expiry they now have. */
  expiring: KeyView[];
}

/**
 * Issues a new key. The keys that were live expire after `graceSeconds` (sooner if they
 * already expire sooner); a rotation that would leave three live keys is refused.
 */
export async function rotateKey(
  deps: { apps: Pick<AppStore, "getApp" | "currentKeys" | "addKey">; clock: Clock },
  input: { appId: string; graceSeconds?: number; name?: string },
  /** Who rotates: the new key is written with the record of it. */
  by?: AuditContext,
): Promise<RotatedKey> {
  const grace = input.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  if (!Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_SECONDS) {
    throw new RefusedError("grace_out_of_range", "The grace period is at most 7 days");
  }
  const name = input.name === undefined ? undefined : checkKeyName(input.name);
  return retryWhenStale(async () => {
    const app = await requireApp(deps.apps, input.appId);
    const now = deps.clock.now();
    const nowIso = isoSeconds(now);
    const live = await deps.apps.currentKeys(app, nowIso);
    if (live.length >= LIVE_KEYS_PER_APP) {
      throw new RefusedError(
        "too_many_live_keys",
        `App ${app.app_id} already has ${live.length} live keys; revoke one, or wait until one expires`,
      );
    }
    const expiresAt = isoSeconds(addSeconds(now, grace));
    const expiring = live.map((key) => ({
      ...key,
      expires_at: key.expires_at && key.expires_at < expiresAt ? key.expires_at : expiresAt,
    }));
    const apiKey = generateApiKey(app.environment);
    const key: KeyItem = {
      key_hash: hashApiKey(apiKey),
      kind: "key",
      key_app_id: app.app_id,
      environment: app.environment,
      prefix: displayPrefix(apiKey),
      ...(name === undefined ? {} : { name }),
      // Written on condition that the app still has this status, so a disable cannot miss it.
      app_status: app.status,
      created_at: nowIso,
    };
    const stillLive = expiring.filter((old) => isLiveKey(old, nowIso)).map((old) => old.key_hash);
    await deps.apps.addKey(
      app,
      key,
      expiring.map(({ key_hash, expires_at }) => ({ key_hash, expires_at })),
      [...stillLive, key.key_hash],
      nowIso,
      by && auditRecord(by, now, { action: "key.created", app_id: app.app_id, detail: { key_id: keyIdOf(key) } }),
    );
    return {
      app_id: app.app_id,
      api_key: apiKey,
      key: keyView(key, nowIso),
      expiring: expiring.map((old) => keyView(old, nowIso)),
    };
  });
}

/** Gives one of the app's keys (live or not) a new name, written with the record of it. */
export async function renameKey(
  deps: { apps: Pick<AppStore, "getApp" | "listKeys" | "renameKey">; clock: Clock },
  input: { appId: string; keyId: string; name: string },
  by?: AuditContext,
): Promise<{ app_id: string; key: KeyView }> {
  const name = checkKeyName(input.name);
  await requireApp(deps.apps, input.appId);
  const noKey = () => new NotFoundError("key_not_found", `App ${input.appId} has no key ${input.keyId}`);
  const key = (await deps.apps.listKeys(input.appId)).find((candidate) => keyIdOf(candidate) === input.keyId);
  if (!key) throw noKey();
  const now = deps.clock.now();
  const renamed = await deps.apps.renameKey(
    input.appId,
    key.key_hash,
    name,
    by && auditRecord(by, now, { action: "key.renamed", app_id: input.appId, detail: { key_id: input.keyId } }),
  );
  if (!renamed) throw noKey();
  return { app_id: input.appId, key: keyView({ ...key, name }, isoSeconds(now)) };
}

/**
 * Revokes the live key with `prefix` or `keyId`, or every live key with `"all"`. Immediate in the
 * table; an authorizer cache may still let a revoked key pass until its entry expires.
 */
export async function revokeKeys(
  deps: { apps: Pick<AppStore, "getApp" | "currentKeys" | "revokeKeys">; clock: Clock },
  input: { appId: string; keys: { prefix: string } | { keyId: string } | "all" },
  /** Who revokes: the revocation is written with the record of it. */
  by?: AuditContext,
): Promise<{ app_id: string; revoked: KeyView[] }> {
  return retryWhenStale(async () => {
    const app = await requireApp(deps.apps, input.appId);
    const now = deps.clock.now();
    const nowIso = isoSeconds(now);
    const live = await deps.apps.currentKeys(app, nowIso);
    let revoked: KeyItem[];
    if (input.keys === "all") {
      revoked = live;
    } else if ("keyId" in input.keys) {
      const { keyId } = input.keys;
      revoked = live.filter((key) => keyIdOf(key) === keyId);
      if (revoked.length === 0) throw new NotFoundError("key_not_found", `App ${app.app_id} has no live key ${keyId}`);
    } else {
      const { prefix } = input.keys;
      revoked = live.filter((key) => key.prefix === prefix);
      if (revoked.length === 0) {
        throw new NotFoundError("key_not_found", `App ${app.app_id} has no live key with prefix ${prefix}`);
      }
      if (revoked.length > 1) {
        throw new RefusedError("ambiguous_key_prefix", `More than one live key has prefix ${prefix}; use --all`);
      }
    }
    const revokedHashes = new Set(revoked.map((key) => key.key_hash));
    const remaining = live.filter((key) => !revokedHashes.has(key.key_hash)).map((key) => key.key_hash);
    if (revoked.length > 0) {
      const keyIds = revoked.map(keyIdOf).join(",");
      await deps.apps.revokeKeys(
        app,
        [...revokedHashes],
        remaining,
        nowIso,
        by && auditRecord(by, now, { action: "key.revoked", app_id: app.app_id, detail: { key_id: keyIds } }),
      );
    }
    return {
      app_id: app.app_id,
      revoked: revoked.map((key) => keyView({ ...key, revoked_at: nowIso }, nowIso)),
    };
  });
}
