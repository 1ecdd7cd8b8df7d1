/**
 * An organisation's apps, keys and webhook destinations, through the same use cases the ops
 * command runs, each change recorded in the audit trail under the portal user's name.
 */
import type { Destinations, Environment } from "../../domain/environments.ts";
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { Member, PortalCaller } from "../../domain/organizations.ts";
import { appPositionSchema } from "../../domain/portal.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { AppLimits } from "../../ports/app-limits.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import type { Sealer } from "../../ports/sealer.ts";
import { type AppWithKeys, appView, appWithKeys, checkAppName, createApp } from "../accounts/apps.ts";
import { checkKeyName, type KeyView, keyView, renameKey, revokeKeys, rotateKey } from "../accounts/keys.ts";
import { checkWebhookUrl, rotateWebhookSecret, setWebhookDestination } from "../webhooks/destination.ts";
import { asFieldRule } from "./field-rule.ts";
import { memberApp } from "./member-app.ts";

type Audited = { clock: Clock };

export type PortalApp = AppWithKeys;

/** The organisation's apps in creation order, each with its keys. */
export async function listMemberApps(
  deps: { organizations: Pick<OrganizationStore, "appsOf">; apps: Pick<AppStore, "listKeys">; clock: Clock },
  member: Member,
  page: { limit: number; cursor?: string },
): Promise<{ data: PortalApp[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, appPositionSchema).app_id;
  const { apps, more } = await deps.organizations.appsOf(member.organizationId, page.limit, after);
  const now = isoSeconds(deps.clock.now());
  const data = await Promise.all(apps.map((app) => appWithKeys(deps.apps, app, now)));
  const last = apps.at(-1);
  return { data, next_cursor: more && last ? encodeCursor({ app_id: last.app_id }) : null };
}

/** A new app of the caller's organisation, its first key and webhook secret shown this once. */
export async function createMemberApp(
  deps: Audited & {
    apps: Pick<AppStore, "createWithKey" | "getApp" | "currentKeys">;
    sealer: Sealer;
    limits: Pick<AppLimits, "register">;
    environment: Environment;
    destinations: Destinations;
  },
  caller: PortalCaller,
  input: { name: string; key_name?: string; webhook_url?: string },
): Promise<PortalApp & { api_key: string; webhook_secret: string }> {
  await asFieldRule("name", () => checkAppName(input.name));
  if (input.key_name !== undefined) {
    const keyName = input.key_name;
    await asFieldRule("key_name", () => checkKeyName(keyName));
  }
  if (input.webhook_url !== undefined) {
    const url = input.webhook_url;
    await asFieldRule("webhook_url", () => checkWebhookUrl(url, deps.destinations));
  }
  const created = await createApp(
    deps,
    {
      name: input.name,
      environment: deps.environment,
      webhookUrl: input.webhook_url,
      organizationId: caller.member.organizationId,
      keyName: input.key_name,
    },
    caller.audit,
  );
  const app = await memberApp(deps.apps, caller.member, created.app_id);
  const now = isoSeconds(deps.clock.now());
  const keys = (await deps.apps.currentKeys(app, now)).map((key) => keyView(key, now));
  return { ...appView(app, now), keys, api_key: created.api_key, webhook_secret: created.webhook_secret };
}

/** A new key for one of the organisation's apps; the live ones expire after the grace period. */
export async function rotateMemberKey(
  deps: Audited & { apps: Pick<AppStore, "getApp" | "currentKeys" | "addKey"> },
  caller: PortalCaller,
  appId: string,
  input: { grace_seconds?: number; name?: string },
) {
  if (input.name !== undefined) {
    const name = input.name;
    await asFieldRule("name", () => checkKeyName(name));
  }
  await memberApp(deps.apps, caller.member, appId);
  return rotateKey(deps, { appId, graceSeconds: input.grace_seconds, name: input.name }, caller.audit);
}

/** Renames one key (live or not) of one of the organisation's apps. */
export async function renameMemberKey(
  deps: Audited & { apps: Pick<AppStore, "getApp" | "listKeys" | "renameKey"> },
  caller: PortalCaller,
  appId: string,
  keyId: string,
  input: { name: string },
): Promise<{ app_id: string; key: KeyView }> {
  await asFieldRule("name", () => checkKeyName(input.name));
  await memberApp(deps.apps, caller.member, appId);
  return renameKey(deps, { appId, keyId, name: input.name }, caller.audit);
}

/** Revokes one live key of one of the organisation's apps, now. */
export async function revokeMemberKey(
  deps: Audited & { apps: Pick<AppStore, "getApp" | "currentKeys" | "revokeKeys"> },
  caller: PortalCaller,
  appId: string,
  keyId: string,
): Promise<{ app_id: string; key: KeyView }> {
  await memberApp(deps.apps, caller.member, appId);
  const { revoked } = await revokeKeys(deps, { appId, keys: { keyId } }, caller.audit);
  const [key] = revoked;
  if (!key) throw new Error("A revocation by key id revoked no key");
  return { app_id: appId, key };
}

export async function setMemberWebhook(
  deps: Audited & { apps: Pick<AppStore, "getApp" | "setWebhookUrl">; destinations: Destinations },
  caller: PortalCaller,
  appId: string,
  url: string,
): Promise<{ app_id: string; webhook_url: string }> {
  await memberApp(deps.apps, caller.member, appId);
  return asFieldRule("url", () => setWebhookDestination(deps, { appId, url }, caller.audit));
}

export async function rotateMemberSecret(
  deps: Audited & { apps: Pick<AppStore, "getApp" | "rotateWebhookSecret">; sealer: Sealer },
  caller: PortalCaller,
  appId: string,
) {
  await memberApp(deps.apps, caller.member, appId);
  return rotateWebhookSecret(deps, { appId }, caller.audit);
}
