/** `ops webhooks`: an app's webhook destination and secret, its deliveries, and replays. */
import { type Command, Option } from "commander";
import {
  removeWebhookDestination,
  resealSecrets,
  rotateWebhookSecret,
  setWebhookDestination,
} from "#shared/use-cases/webhooks/destination";
import { type DeliveryView, deliveryHistory, replayEvent } from "#shared/use-cases/webhooks/replay";
import { sealedWithCurrentKey } from "#shared/wiring/sealer";
import { appId, eventId, positiveInteger } from "../arguments.ts";
import { fields, table } from "../output.ts";
import type { Run } from "../program.ts";

export function addWebhooksCommands(program: Command, run: Run): void {
  const webhooks = program.command("webhooks").description("webhook destinations");

  webhooks
    .command("set")
    .description("set where the app's events go")
    .argument("<app-id>", "the app", appId)
    .requiredOption("--url <url>", "https to a public address, or http to loopback in the local sandbox runtime")
    .action((id: string, options: { url: string }, command: Command) =>
      run(command, async (target) => {
        const result = await setWebhookDestination(target, { appId: id, url: options.url }, await target.operator());
        return { json: result, text: `Events of ${result.app_id} go to ${result.webhook_url}` };
      }),
    );

  webhooks
    .command("remove")
    .description("send the app's events nowhere: they are kept, and GET /v1/events lists them")
    .argument("<app-id>", "the app", appId)
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const result = await removeWebhookDestination(target, { appId: id }, await target.operator());
        return { json: result, text: `Events of ${result.app_id} go nowhere now` };
      }),
    );

  webhooks
    .command("rotate-secret")
    .description("a new signing secret; the previous one keeps signing for 24 h")
    .argument("<app-id>", "the app", appId)
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const rotated = await rotateWebhookSecret(target, { appId: id }, await target.operator());
        return {
          json: rotated,
          text: [
            `New webhook secret for ${rotated.app_id}. Shown once: store it now, it cannot be read back.`,
            fields([["webhook secret", rotated.webhook_secret]]),
            `Events carry a second signature, made with the previous secret, until ${rotated.previous_secret_expires_at}.`,
          ].join("\n"),
        };
      }),
    );

  webhooks
    .command("deliveries")
    .description("the app's most recent delivery attempts, newest first")
    .argument("<app-id>", "the app", appId)
    .addOption(new Option("--limit <n>", "how many attempts").argParser(positiveInteger).default(20))
    .action((id: string, options: { limit: number }, command: Command) =>
      run(command, async (target) => {
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
      }),
    );

  webhooks
    .command("reseal")
    .description("seal every app's webhook secrets with the KMS key: those sealed before it are moved, once")
    .action((_options: object, command: Command) =>
      run(command, async (target) => {
        const tally = await resealSecrets(target, sealedWithCurrentKey, await target.operator());
        return {
          json: tally,
          text: `Resealed the secrets of ${tally.resealed} app(s) with the KMS key; ${tally.current} were sealed with it already.`,
        };
      }),
    );

  webhooks
    .command("replay")
    .description("send a parked or delivered event again: due now, the tick delivers it")
    .argument("<event-id>", "the event", eventId)
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const event = await replayEvent(
          { events: await target.events(), clock: target.clock },
          id,
          await target.operator(),
        );
        const view = { event_id: event.event_id, status: event.status, next_attempt_at: event.next_attempt_at ?? null };
        return { json: view, text: `Event ${view.event_id} is due again now; the tick sends it within a minute.` };
      }),
    );
}
