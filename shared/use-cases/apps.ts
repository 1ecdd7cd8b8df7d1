import { type AppStore, appPk, keyPk } from "../app-store.ts";
import type { Environment } from "../config.ts";
import { displayPrefix, generateApiKey, generateWebhookSecret, hashApiKey } from "../credentials.ts";
import { newId } from "../ids.ts";
import type { SecretBox } from "../secret-box.ts";
import { isoSeconds, nowSeconds } from "../time.ts";

export interface NewApp {
  app_id: string;
  name: string;
  environment: Environment;
  /** Shown once; only its hash is stored. */
  api_key: string;
  /** Shown once; stored sealed. */
  webhook_secret: string;
  webhook_url: string | null;
}

/** Creates a client app with its first API key and its webhook signing secret. */
export async function createApp(
  deps: { apps: AppStore; secrets: SecretBox },
  input: { name: string; environment: Environment; webhookUrl?: string },
): Promise<NewApp> {
  const now = isoSeconds(nowSeconds());
  const appId = newId("app");
  const apiKey = generateApiKey(input.environment);
  const webhookSecret = generateWebhookSecret();
  await deps.apps.createWithKey(
    {
      pk: appPk(appId),
      kind: "app",
      app_id: appId,
      name: input.name,
      environment: input.environment,
      status: "active",
      webhook_url: input.webhookUrl,
      webhook_secret_sealed: deps.secrets.seal(webhookSecret),
      created_at: now,
      updated_at: now,
    },
    {
      pk: keyPk(hashApiKey(apiKey)),
      kind: "key",
      key_app_id: appId,
      environment: input.environment,
      prefix: displayPrefix(apiKey),
      app_status: "active",
      created_at: now,
    },
  );
  return {
    app_id: appId,
    name: input.name,
    environment: input.environment,
    api_key: apiKey,
    webhook_secret: webhookSecret,
    webhook_url: input.webhookUrl ?? null,
  };
}
