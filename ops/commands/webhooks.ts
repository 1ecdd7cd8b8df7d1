/** `ops webhooks`: an app's webhook destination and secret, its deliveries, and replays. */
import { Option } from "commander";
import {
  removeWebhookDestination,
  resealSecrets,
  rotateWebhookSecret,
  setWebhookDestination,
} from "#shared/use-cases/webhooks/destination";
import { type DeliveryView, deliveryHistory, replayEvent } from "#shared/use-cases/webhooks/replay";
import { sealedWithCurrentKey } from "#shared/wiring/sealer";
import { appId, eventId, positiveInteger } from "../arguments.ts";
import { argument, type Given, type GroupDefinition, requiredOption } from "../definitions.ts";
import { fields, table } from "../output.ts";

const theApp = () => argument("<app-id>", "the app", appId);

export const WEBHOOKS: GroupDefinition = {
  name: "webhooks",
  description: "webhook destinations",
  commands: [
    {
      name: "set",
      description: "set where the app's events go",
      arguments: [theApp()],
      options: [
        requiredOption("--url <url>", "https to a public address, or http to loopback in the local sandbox runtime"),
      ],
      reaches: "target",
      run: async (target, { args: [id], options }: Given<[string], { url: string }>) => {
        const result = await setWebhookDestination(target, { appId: id, url: options.url }, await target.operator());
        return { json: result, text: `Events of ${result.app_id} go to ${result.webhook_url}` };
      },
    },
    {
      name: "remove",
      description: "send the app's events nowhere: they are kept, and GET /v1/events lists them",
      arguments: [theApp()],
      reaches: "target",
      run: async (target, { args: [id] }: Given<[string]>) => {
        const result = await removeWebhookDestination(target, { appId: id }, await target.operator());
        return { json: result, text: `Events of ${result.app_id} go nowhere now` };
      },
    },
    {
      name: "rotate-secret",
      description: "a new signing secret; the previous one keeps signing for 24 h",
      arguments: [theApp()],
      reaches: "target",
      run: async (target, { args: [id] }: Given<[string]>) => {
        const rotated = await rotateWebhookSecret(target, { appId: id }, await target.operator());
        return {
          json: rotated,
          text: [
            `New webhook secret for ${rotated.app_id}. Shown once: store it now, it cannot be read back.`,
            fields([["webhook secret", rotated.webhook_secret]]),
            `Events carry a second signature, made with the previous secret, until ${rotated.previous_secret_expires_at}.`,
          ].join("\n"),
        };
      },
    },
    {
      name: "deliveries",
      description: "the app's most recent delivery attempts, newest first",
      arguments: [theApp()],
      options: [new Option("--limit <n>", "how many attempts").argParser(positiveInteger).default(20)],
      reaches: "target",
      run: async (target, { args: [id], options }: Given<[string], { limit: number }>) => {
        const attempts = await deliveryHistory({ events: await target.events() }, id, options.limit);
        return {
          json: { app_id: id, attempts },
          text: table<DeliveryView>(
            [
              ["TIME", (a) => a.attempted_at],
              ["EVENT", (a) => a.event_id],
              ["#", (a) => String(a.attempt)],
              ["OUTCOME", (a) => a.outcome],
              ["STATUS", (a) => (a.response_status === null ? null : String(a.response_status))],
              ["MS", (a) => String(a.latency_ms)],
              ["ERROR", (a) => a.error],
            ],
            attempts,
          ),
        };
      },
    },
    {
      name: "reseal",
      description: "seal every app's webhook secrets with the KMS key: those sealed before it are moved, once",
      reaches: "target",
      run: async (target) => {
        const tally = await resealSecrets(target, sealedWithCurrentKey, await target.operator());
        return {
          json: tally,
          text: `Resealed the secrets of ${tally.resealed} app(s) with the KMS key; ${tally.current} were sealed with it already.`,
        };
      },
    },
    {
      name: "replay",
      description: "send a parked or delivered event again: due now, the tick delivers it",
      arguments: [argument("<event-id>", "the event", eventId)],
      reaches: "target",
      run: async (target, { args: [id] }: Given<[string]>) => {
        const event = await replayEvent(
          { events: await target.events(), clock: target.clock },
          id,
          await target.operator(),
        );
        const view = { event_id: event.event_id, status: event.status, next_attempt_at: event.next_attempt_at ?? null };
        return { json: view, text: `Event ${view.event_id} is due again now; the tick sends it within a minute.` };
      },
    },
  ],
};
