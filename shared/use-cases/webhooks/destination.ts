/** An app's webhook destination: where events go, and the secrets they are signed with. */
import { bareHost, isAddressLiteral, isLoopbackAddress, isPublicAddress } from "../../domain/addresses.ts";
import type { AppItem } from "../../domain/apps.ts";
import { type AuditContext, auditRecord } from "../../domain/audit.ts";
import { generateWebhookSecret } from "../../domain/credentials.ts";
import type { Destinations } from "../../domain/environments.ts";
import { InvalidInputError, RefusedError } from "../../domain/errors.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { Sealer } from "../../ports/sealer.ts";
import { requireApp } from "../accounts/require-app.ts";
import { retryWhenStale } from "../accounts/retry-when-stale.ts";

/** After a rotation the previous secret still signs for this long, so receivers can switch over. */
export const PREVIOUS_SECRET_SECONDS = 24 * 3600;

const MAX_URL_LENGTH = 2048;

/**
 * The webhook URL rule: https to a public address, or, where `destinations` lets webhooks
 * reach loopback (the local runtime playing sandbox), http or https to the machine itself. A
 * name is resolved at delivery, where the address actually connected to is checked; an
 * address written in the URL is checked here already. No credentials in the URL: it is stored
 * and shown in plain text. Returns the URL in its normalized form.
 */
export function checkWebhookUrl(url: string, destinations: Destinations): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError("invalid_input", "The webhook URL is not a valid absolute URL");
  }
  if (url.length > MAX_URL_LENGTH)
    throw new InvalidInputError("invalid_input", `A webhook URL has at most ${MAX_URL_LENGTH} characters`);
  if (parsed.username || parsed.password) {
    throw new RefusedError("webhook_url_not_allowed", "A webhook URL must not carry credentials");
  }
  const host = bareHost(parsed);
  const loopback = host === "localhost" || isLoopbackAddress(host);
  if (loopback && destinations === "public-or-loopback") {
    if (parsed.protocol === "https:" || parsed.protocol === "http:") return parsed.href;
  } else if (parsed.protocol === "https:") {
    if (!loopback && (!isAddressLiteral(host) || isPublicAddress(host))) return parsed.href;
    throw new RefusedError(
      "webhook_url_not_allowed",
      "A webhook URL must reach a public address: loopback, private, link-local and special-use addresses are refused",
    );
  }
  throw new RefusedError(
    "webhook_url_not_allowed",
    "A webhook URL must use https (http only to a loopback receiver, in the local runtime playing sandbox)",
  );
}

/**
 * The secrets to sign an event with right now: the current one first, then the previous one
 * while it is still valid after a rotation. Each gives one `v1,` signature.
 */
export async function signingSecrets(app: AppItem, sealer: Sealer, now: string): Promise<string[]> {
  const context = { appId: app.app_id };
  const secrets = [await sealer.open(app.webhook_secret_sealed, context)];
  if (
    app.previous_webhook_secret_sealed &&
    app.previous_webhook_secret_expires_at &&
    app.previous_webhook_secret_expires_at > now
  ) {
    secrets.push(await sealer.open(app.previous_webhook_secret_sealed, context));
  }
  return secrets;
}

export async function setWebhookDestination(
  deps: { apps: Pick<AppStore, "getApp" | "setWebhookUrl">; clock: Clock; destinations: Destinations },
  input: { appId: string; url: string },
  /** Who sets it: the destination is written with the record of it. */
  by?: AuditContext,
): Promise<{ app_id: string; webhook_url: string }> {
  const app = await requireApp(deps.apps, input.appId);
  const url = checkWebhookUrl(input.url, deps.destinations);
  const now = deps.clock.now();
  await deps.apps.setWebhookUrl(
    app.app_id,
    url,
    isoSeconds(now),
    by && auditRecord(by, now, { action: "webhook.updated", app_id: app.app_id, detail: { webhook_url: url } }),
  );
  return { app_id: app.app_id, webhook_url: url };
}

/**
 * Removes where the app's events go: they are still recorded, and not sent (`GET /v1/events`
 * has them). Recorded as a `webhook.updated` to an empty URL.
 */
export async function removeWebhookDestination(
  deps: { apps: Pick<AppStore, "getApp" | "setWebhookUrl">; clock: Clock },
  input: { appId: string },
  by?: AuditContext,
): Promise<{ app_id: string; webhook_url: null }> {
  const app = await requireApp(deps.apps, input.appId);
  const now = deps.clock.now();
  await deps.apps.setWebhookUrl(
    app.app_id,
    undefined,
    isoSeconds(now),
    by && auditRecord(by, now, { action: "webhook.updated", app_id: app.app_id, detail: { webhook_url: "" } }),
  );
  return { app_id: app.app_id, webhook_url: null };
}

export interface RotatedWebhookSecret {
  app_id: string;
  /** Shown once; stored sealed. */
  webhook_secret: string;
  /** Until then events carry a second signature made with the previous secret. */
  previous_secret_expires_at: string;
}

/**
 * A new signing secret. The one it replaces keeps signing for 24 h; a secret older than that
 * (from a rotation less than 24 h ago) stops at once.
 */
export async function rotateWebhookSecret(
  deps: { apps: Pick<AppStore, "getApp" | "rotateWebhookSecret">; sealer: Sealer; clock: Clock },
  input: { appId: string },
  /** Who rotates: the secret is written with the record of it. */
  by?: AuditContext,
): Promise<RotatedWebhookSecret> {
  return retryWhenStale(async () => {
    const app = await requireApp(deps.apps, input.appId);
    const now = deps.clock.now();
    const secret = generateWebhookSecret();
    const previousExpiresAt = isoSeconds(addSeconds(now, PREVIOUS_SECRET_SECONDS));
    const sealed = await deps.sealer.seal(secret, { appId: app.app_id });
    await deps.apps.rotateWebhookSecret(
      app,
      sealed,
      previousExpiresAt,
      isoSeconds(now),
      by && auditRecord(by, now, { action: "webhook.secret_rotated", app_id: app.app_id }),
    );
    return { app_id: app.app_id, webhook_secret: secret, previous_secret_expires_at: previousExpiresAt };
  });
}

/** How many apps a reseal moved to the current sealing key, and how many it found there already. */
export interface ResealTally {
  resealed: number;
  current: number;
}

/**
 * Moves every app's webhook secrets (and a previous one still kept) to the current sealing key:
 * each is opened (with the retired key when it was sealed before) and sealed again for its app.
 * A value already sealed with the current key is left alone; an app that changes meanwhile is
 * read again.
 */
export async function resealSecrets(
  deps: { apps: Pick<AppStore, "listApps" | "getApp" | "resealSecrets">; sealer: Sealer; clock: Clock },
  isCurrent: (sealed: string) => boolean,
  /** Who reseals: each app's new seal is written with the record of it. */
  by?: AuditContext,
): Promise<ResealTally> {
  const tally: ResealTally = { resealed: 0, current: 0 };
  for (const listed of await deps.apps.listApps()) {
    const outcome = await retryWhenStale(async () => {
      const app = await requireApp(deps.apps, listed.app_id);
      const previous = app.previous_webhook_secret_sealed;
      if (isCurrent(app.webhook_secret_sealed) && (previous === undefined || isCurrent(previous))) return "current";
      const context = { appId: app.app_id };
      const reseal = async (sealed: string) =>
        isCurrent(sealed) ? sealed : deps.sealer.seal(await deps.sealer.open(sealed, context), context);
      await deps.apps.resealSecrets(
        app,
        {
          current: await reseal(app.webhook_secret_sealed),
          ...(previous === undefined ? {} : { previous: await reseal(previous) }),
        },
        isoSeconds(deps.clock.now()),
        by && auditRecord(by, deps.clock.now(), { action: "webhook.secrets_resealed", app_id: app.app_id }),
      );
      return "resealed";
    });
    tally[outcome] += 1;
  }
  return tally;
}
