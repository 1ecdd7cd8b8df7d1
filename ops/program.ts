/**
 * The ops command: a thin adapter from the command line to the app, key and webhook use
 * cases in `shared/use-cases/`, aimed at the local runtime or a deployed environment.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { ENVIRONMENTS, type Environment } from "#shared/config";
import { isId } from "#shared/ids";
import { AUTHORIZER } from "#shared/routes";
import { AppNotFoundError, InvalidInputError, KeyNotFoundError, RefusedError } from "#shared/use-cases/app-support";
import { type AppView, checkNewApp, createApp, listApps, setAppStatus, showApp } from "#shared/use-cases/apps";
import {
  DEFAULT_GRACE_SECONDS,
  type KeyView,
  listAppKeys,
  MAX_GRACE_SECONDS,
  revokeKeys,
  rotateKey,
} from "#shared/use-cases/keys";
import { rotateWebhookSecret, setWebhookDestination } from "#shared/use-cases/webhook-destination";
import { type DeliveryView, deliveryHistory, EventNotFoundError, replayEvent } from "#shared/use-cases/webhooks";
import { fields, type Output, table } from "./output.ts";
import { resolveTarget, type Target, type TargetOptions, TargetUnavailableError } from "./target.ts";

/** Exit codes, documented in the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2, notFound: 3, refused: 4 } as const;

export interface OpsIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

const DURATION = /^(\d{1,6})([smhd])$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** `30m`, `24h`, `7d` -> seconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (!match) throw new InvalidArgumentError("expected a number and a unit: s, m, h or d (e.g. 30m, 24h, 7d)");
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

function eventId(value: string): string {
  if (!isId("event", value)) throw new InvalidArgumentError("expected an event id: evt_ and 26 characters");
  return value;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 1000) {
    throw new InvalidArgumentError("expected a whole number from 1 to 1000");
  }
  return number;
}

function appId(value: string): string {
  if (!isId("app", value)) throw new InvalidArgumentError("expected an app id: app_ and 26 characters");
  return value;
}

const keysTable = (keys: KeyView[]) =>
  table<KeyView>(
    [
      ["PREFIX", (key) => key.prefix],
      ["STATUS", (key) => key.status],
      ["CREATED", (key) => key.created_at],
      ["EXPIRES", (key) => key.expires_at],
      ["REVOKED", (key) => key.revoked_at],
    ],
    keys,
  );

const appFields = (app: AppView): [string, string | null][] => [
  ["app id", app.app_id],
  ["name", app.name],
  ["environment", app.environment],
  ["status", app.status],
  ["webhook URL", app.webhook_url],
  [
    "previous secret",
    app.previous_webhook_secret_expires_at && `signs too until ${app.previous_webhook_secret_expires_at}`,
  ],
  ["created", app.created_at],
  ["updated", app.updated_at],
];

const CACHE_NOTE = `Decisions already cached by the authorizer stand for up to ${AUTHORIZER.cacheTtlSeconds} s.`;

/** One line, never a stack, never a secret (no command takes a key or secret as input). */
function describeFailure(error: unknown): { exit: number; code: string; message: string } {
  if (error instanceof CommanderError) {
    return { exit: EXIT.usage, code: "usage_error", message: error.message.replace(/^error: /, "") };
  }
  if (error instanceof InvalidInputError) return { exit: EXIT.usage, code: "invalid_input", message: error.message };
  if (error instanceof AppNotFoundError) return { exit: EXIT.notFound, code: "app_not_found", message: error.message };
  if (error instanceof KeyNotFoundError) return { exit: EXIT.notFound, code: "key_not_found", message: error.message };
  if (error instanceof EventNotFoundError) {
    return { exit: EXIT.notFound, code: "event_not_found", message: error.message };
  }
  if (error instanceof RefusedError) return { exit: EXIT.refused, code: error.code, message: error.message };
  if (error instanceof TargetUnavailableError) {
    return { exit: EXIT.failed, code: "target_unavailable", message: error.message };
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { exit: EXIT.failed, code: "failed", message: text.split("\n")[0] ?? text };
}

const TARGET_FLAGS = [
  "--env",
  "--region",
  "--stack",
  "--apps-table",
  "--events-table",
  "--secrets-key-arn",
  "--data-dir",
];

export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  let output: Output | undefined;
  let json = argv.includes("--json");

  const program = new Command("ops")
    .description("Operate client apps, API keys and webhook destinations of one environment")
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // Errors are written once, by runOps, as one line (or one JSON object).
      outputError: () => undefined,
    })
    .addOption(
      new Option("--env <environment>", "a deployed environment (default: the local runtime)").choices(ENVIRONMENTS),
    )
    .option("--region <region>", "AWS region of the deployed environment (default: the AWS chain's)")
    .option("--stack <name>", "stack to read outputs from (default: VerificationApi-<env>)")
    .option("--apps-table <name>", "apps table name, instead of the stack output AppsTableName")
    .option("--events-table <name>", "events table name, instead of the stack output EventsTableName")
    .option("--secrets-key-arn <arn>", "sealing key secret, instead of the stack output SecretsKeyArn")
    .option("--data-dir <path>", "the local runtime's data folder (default: LOCAL_DATA_DIR or .local)")
    .option("--json", "answer in JSON");

  /** Runs `work` against the target the program options name, and keeps its output. */
  async function run(command: Command, work: (target: Target) => Promise<Output>): Promise<void> {
    const global = program.opts<TargetOptions & { json?: boolean }>();
    json = Boolean(global.json || command.opts<{ json?: boolean }>().json);
    if (
      !global.env &&
      (global.region || global.stack || global.appsTable || global.eventsTable || global.secretsKeyArn)
    ) {
      command.error("--region, --stack, --apps-table, --events-table and --secrets-key-arn need --env", {
        exitCode: EXIT.usage,
      });
    }
    const target = await resolveTarget(global, io.env);
    try {
      output = await work(target);
    } finally {
      target.close();
    }
  }

  const apps = program.command("apps").description("client apps");
  apps
    .command("create")
    .description("create an app; prints its API key and webhook secret once")
    .requiredOption("--name <name>", "the app's name")
    .addOption(
      new Option("--env <environment>", "the app's environment (default and only choice: the target's)").choices(
        ENVIRONMENTS,
      ),
    )
    .option("--webhook-url <url>", "where its events go: https (http to loopback in sandbox)")
    .option("--json", "answer in JSON")
    .action((options: { name: string; env?: Environment; webhookUrl?: string }, command: Command) =>
      run(command, async (target) => {
        const input = {
          name: options.name,
          environment: options.env ?? target.environment,
          webhookUrl: options.webhookUrl,
        };
        // Refuse bad input before reading the sealing key (a Secrets Manager call when deployed).
        checkNewApp(target.environment, input);
        const app = await createApp(
          { apps: target.apps, secrets: await target.secrets(), environment: target.environment },
          input,
        );
        return {
          json: { ...app, status: "active" },
          text: [
            `Created ${app.app_id} in ${target.label}`,
            fields([
              ["app id", app.app_id],
              ["name", app.name],
              ["environment", app.environment],
              ["webhook URL", app.webhook_url],
              ["key prefix", app.key_prefix],
            ]),
            "",
            "Shown once: store them now, they cannot be read back.",
            fields([
              ["API key", app.api_key],
              ["webhook secret", app.webhook_secret],
            ]),
          ].join("\n"),
        };
      }),
    );

  apps
    .command("list")
    .description("every app of the environment")
    .option("--json", "answer in JSON")
    .action((_options: object, command: Command) =>
      run(command, async (target) => {
        const all = await listApps({ apps: target.apps });
        return {
          json: { apps: all },
          text:
            all.length === 0
              ? `No apps in ${target.label}`
              : table<AppView>(
                  [
                    ["APP ID", (app) => app.app_id],
                    ["NAME", (app) => app.name],
                    ["ENV", (app) => app.environment],
                    ["STATUS", (app) => app.status],
                    ["WEBHOOK URL", (app) => app.webhook_url],
                    ["CREATED", (app) => app.created_at],
                  ],
                  all,
                ),
        };
      }),
    );

  apps
    .command("show")
    .description("one app, its keys and its webhook destination")
    .argument("<app-id>", "the app", appId)
    .option("--json", "answer in JSON")
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const app = await showApp({ apps: target.apps }, id);
        return { json: app, text: [fields(appFields(app)), "", "Keys", keysTable(app.keys)].join("\n") };
      }),
    );

  for (const [name, status, description] of [
    ["disable", "disabled", "refuse the app's keys with 403 app_disabled"],
    ["enable", "active", "accept the app's keys again"],
  ] as const) {
    apps
      .command(name)
      .description(description)
      .argument("<app-id>", "the app", appId)
      .option("--json", "answer in JSON")
      .action((id: string, _options: object, command: Command) =>
        run(command, async (target) => {
          const app = await setAppStatus({ apps: target.apps }, { appId: id, status });
          return { json: app, text: `${app.app_id} is ${app.status}. ${CACHE_NOTE}` };
        }),
      );
  }

  const keys = program.command("keys").description("API keys");
  keys
    .command("rotate")
    .description("issue a new key; the live key expires after the grace period")
    .argument("<app-id>", "the app", appId)
    .option(
      "--grace <duration>",
      `how long the previous key keeps working: e.g. 30m, 24h, 7d (default 24h, at most ${MAX_GRACE_SECONDS / 86400}d)`,
      parseDuration,
    )
    .option("--json", "answer in JSON")
    .action((id: string, options: { grace?: number }, command: Command) =>
      run(command, async (target) => {
        const rotated = await rotateKey(
          { apps: target.apps },
          { appId: id, graceSeconds: options.grace ?? DEFAULT_GRACE_SECONDS },
        );
        const previous = rotated.expiring.length > 0 ? ["", "Previous keys", keysTable(rotated.expiring)] : [];
        return {
          json: rotated,
          text: [
            `New key for ${rotated.app_id}. Shown once: store it now, it cannot be read back.`,
            fields([
              ["API key", rotated.api_key],
              ["prefix", rotated.key.prefix],
            ]),
            ...previous,
          ].join("\n"),
        };
      }),
    );

  keys
    .command("revoke")
    .description("revoke one live key (--key) or every live key (--all), at once")
    .argument("<app-id>", "the app", appId)
    .addOption(new Option("--key <prefix>", "the key's prefix, as keys list shows it").conflicts("all"))
    .option("--all", "every live key of the app")
    .option("--json", "answer in JSON")
    .action((id: string, options: { key?: string; all?: boolean }, command: Command) =>
      run(command, async (target) => {
        if (!options.key && !options.all) command.error("give --key <prefix> or --all", { exitCode: EXIT.usage });
        const result = await revokeKeys(
          { apps: target.apps },
          { appId: id, keys: options.all ? "all" : { prefix: options.key ?? "" } },
        );
        return {
          json: result,
          text:
            result.revoked.length === 0
              ? `${result.app_id} had no live key to revoke.`
              : [
                  `Revoked ${result.revoked.length} key(s) of ${result.app_id}. ${CACHE_NOTE}`,
                  keysTable(result.revoked),
                ].join("\n"),
        };
      }),
    );

  keys
    .command("list")
    .description("the app's keys: prefix, created, expires, status (never the key)")
    .argument("<app-id>", "the app", appId)
    .option("--json", "answer in JSON")
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const list = await listAppKeys({ apps: target.apps }, id);
        return { json: { app_id: id, keys: list }, text: keysTable(list) };
      }),
    );

  const webhooks = program.command("webhooks").description("webhook destinations");
  webhooks
    .command("set")
    .description("set where the app's events go")
    .argument("<app-id>", "the app", appId)
    .requiredOption("--url <url>", "https, or http to a loopback address in sandbox")
    .option("--json", "answer in JSON")
    .action((id: string, options: { url: string }, command: Command) =>
      run(command, async (target) => {
        const result = await setWebhookDestination({ apps: target.apps }, { appId: id, url: options.url });
        return { json: result, text: `Events of ${result.app_id} go to ${result.webhook_url}` };
      }),
    );

  webhooks
    .command("rotate-secret")
    .description("a new signing secret; the previous one keeps signing for 24 h")
    .argument("<app-id>", "the app", appId)
    .option("--json", "answer in JSON")
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const rotated = await rotateWebhookSecret(
          { apps: target.apps, secrets: await target.secrets() },
          { appId: id },
        );
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
    .option("--json", "answer in JSON")
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
              ["STATUS", (a) => (a.status_code === null ? null : String(a.status_code))],
              ["MS", (a) => String(a.latency_ms)],
              ["ERROR", (a) => a.error],
            ],
            attempts,
          ),
        };
      }),
    );

  webhooks
    .command("replay")
    .description("send a parked or delivered event again: due now, the tick delivers it")
    .argument("<event-id>", "the event", eventId)
    .option("--json", "answer in JSON")
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const event = await replayEvent({ events: await target.events() }, id, new Date());
        if (!event) throw new EventNotFoundError(id);
        const view = { event_id: event.event_id, status: event.status, next_attempt_at: event.next_attempt_at ?? null };
        return { json: view, text: `Event ${view.event_id} is due again now; the tick sends it within a minute.` };
      }),
    );

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError && error.code === "commander.helpDisplayed") return EXIT.ok;
    if (error instanceof CommanderError && error.code === "commander.version") return EXIT.ok;
    // A command group without its subcommand: commander has printed the group's help.
    if (error instanceof CommanderError && error.code === "commander.help") return EXIT.usage;
    const failure = describeFailure(error);
    const misplaced = TARGET_FLAGS.find((flag) => failure.message === `unknown option '${flag}'`);
    const oneLine = failure.message.replace(/\s*\n\s*/g, " ");
    const message = misplaced
      ? `${oneLine}: target options go before the command, e.g. ops ${misplaced} <value> apps list`
      : oneLine;
    io.stderr(json ? `${JSON.stringify({ error: { code: failure.code, message } })}\n` : `error: ${message}\n`);
    return failure.exit;
  }
  if (output) io.stdout(json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.text}\n`);
  return EXIT.ok;
}
