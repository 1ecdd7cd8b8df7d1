/** The local runtime's own client app, created on first start and kept in dev-app.json. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Destinations } from "#shared/domain/environments";
import { ENVIRONMENTS, type Environment } from "#shared/domain/environments";
import type { AppLimits } from "#shared/ports/app-limits";
import type { AppStore } from "#shared/ports/app-store";
import type { Clock } from "#shared/ports/clock";
import type { Sealer } from "#shared/ports/sealer";
import { createApp } from "#shared/use-cases/accounts/apps";
import { setWebhookDestination } from "#shared/use-cases/webhooks/destination";
import { writeDataFile } from "./data-file.ts";

const devAppFile = z.object({
  base_url: z.string(),
  app_id: z.string(),
  api_key: z.string(),
  webhook_secret: z.string(),
  environment: z.enum(ENVIRONMENTS),
});
export type DevApp = z.infer<typeof devAppFile>;

export function devAppPath(dataDir: string): string {
  return path.resolve(dataDir, "dev-app.json");
}

/** The dev app kept in `file`, or undefined when there is none (or it is not one). */
export function readDevApp(file: string): DevApp | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = devAppFile.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return parsed.success ? parsed.data : undefined;
}

/** The names the first run seeds, in the runtime's language (`LOCAL_LANGUAGE`). */
export const SEEDED_NAMES = {
  tr: { app: "Yerel geliştirme uygulaması", organization: "Yerel geliştirme kuruluşu" },
  en: { app: "Local development app", organization: "Local development organisation" },
} as const;

/**
 * The dev app of `environment`: the one in dev-app.json while its table still holds it,
 * otherwise a new one named `name`. `webhookUrl`, when given, becomes its webhook destination.
 */
export async function ensureDevApp(
  deps: { apps: AppStore; sealer: Sealer; limits: AppLimits; clock: Clock; destinations: Destinations },
  options: { dataDir: string; environment: Environment; baseUrl: string; webhookUrl?: string; name: string },
): Promise<{ devApp: DevApp; created: boolean; webhookUrl: string | undefined; name: string }> {
  const file = devAppPath(options.dataDir);
  const known = readDevApp(file);
  const existing =
    known && known.environment === options.environment && (await deps.apps.getApp(known.app_id)) ? known : undefined;
  let devApp: DevApp;
  if (existing) {
    devApp = { ...existing, base_url: options.baseUrl };
    if (options.webhookUrl) await setWebhookDestination(deps, { appId: existing.app_id, url: options.webhookUrl });
  } else {
    const app = await createApp(deps, {
      name: options.name,
      environment: options.environment,
      webhookUrl: options.webhookUrl,
    });
    devApp = {
      base_url: options.baseUrl,
      app_id: app.app_id,
      api_key: app.api_key,
      webhook_secret: app.webhook_secret,
      environment: app.environment,
    };
  }
  writeDataFile(file, `${JSON.stringify(devApp, null, 2)}\n`, { secret: true });
  // Where its events go now (given this time, or kept from a run before, or set by the portal since), and its name now.
  const app = await deps.apps.getApp(devApp.app_id);
  return { devApp, created: !existing, webhookUrl: app?.webhook_url, name: app?.name ?? options.name };
}
