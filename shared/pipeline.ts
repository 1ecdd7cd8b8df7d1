import { AppStore } from "./app-store.ts";
import { documentClient } from "./clients.ts";
import { EventStore } from "./event-store.ts";
import { secretBox } from "./secret-key.ts";
import { signingSecrets } from "./use-cases/webhook-destination.ts";
import type { WebhookDeps } from "./use-cases/webhooks.ts";

/** What delivering webhooks needs: the events, the apps, and the secrets to sign with. */
export function webhookDeps(config: { APPS_TABLE: string; EVENTS_TABLE: string }): WebhookDeps {
  const db = documentClient();
  return {
    apps: new AppStore(db, config.APPS_TABLE),
    events: new EventStore(db, config.EVENTS_TABLE),
    signingSecrets: async (app, now) => signingSecrets(app, await secretBox(), now),
  };
}
