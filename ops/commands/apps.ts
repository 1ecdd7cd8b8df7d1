/** `ops apps`: create, list, show, disable and enable client apps, and give every app its request bucket. */
import { Option } from "commander";
import { ENVIRONMENTS, type Environment } from "#shared/domain/environments";
import {
  type AppView,
  createApp,
  listApps,
  setAppStatus,
  showApp,
  syncAppLimits,
} from "#shared/use-cases/accounts/apps";
import { appId } from "../arguments.ts";
import {
  argument,
  type Given,
  type GroupDefinition,
  option,
  requiredOption,
  type TargetCommand,
} from "../definitions.ts";
import { fields, table } from "../output.ts";
import { CACHE_NOTE, keysTable } from "./keys.ts";

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

const theApp = () => argument("<app-id>", "the app", appId);

const create: TargetCommand = {
  name: "create",
  description: "create an app; prints its API key and webhook secret once",
  options: [
    requiredOption("--name <name>", "the app's name"),
    new Option("--env <environment>", "the app's environment (default and only choice: the target's)").choices(
      ENVIRONMENTS,
    ),
    option("--webhook-url <url>", "where its events go: https (http to loopback only in the local sandbox runtime)"),
    option("--key-name <name>", "a name for its first key (1 to 60 characters)"),
  ],
  reaches: "target",
  run: async (
    target,
    { options }: Given<[], { name: string; env?: Environment; webhookUrl?: string; keyName?: string }>,
  ) => {
    // createApp checks the input before it reads the sealing key (a Secrets Manager call when deployed).
    const app = await createApp(
      target,
      {
        name: options.name,
        environment: options.env ?? target.environment,
        webhookUrl: options.webhookUrl,
        keyName: options.keyName,
      },
      await target.operator(),
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
  },
};

const list: TargetCommand = {
  name: "list",
  description: "every app of the environment",
  reaches: "target",
  run: async (target) => {
    const all = await listApps(target);
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
  },
};

const show: TargetCommand = {
  name: "show",
  description: "one app, its keys and its webhook destination",
  arguments: [theApp()],
  reaches: "target",
  run: async (target, { args: [id] }: Given<[string]>) => {
    const app = await showApp(target, id);
    return { json: app, text: [fields(appFields(app)), "", "Keys", keysTable(app.keys)].join("\n") };
  },
};

const syncLimits: TargetCommand = {
  name: "sync-limits",
  description: "give every app that has none its own request bucket (a key in the stage's usage plan)",
  reaches: "target",
  run: async (target) => {
    const sync = await syncAppLimits(target);
    const given = sync.registered.length;
    return {
      json: sync,
      text:
        given === 0
          ? `Every app of ${target.label} has its request bucket (${sync.unchanged} apps)`
          : [
              `Gave ${given} app${given === 1 ? "" : "s"} of ${target.label} a request bucket; ${sync.unchanged} had one`,
              ...sync.registered.map((id) => `  ${id}`),
            ].join("\n"),
    };
  },
};

/** `disable` and `enable`: the app's status, and what the authorizer may still have cached. */
const setStatus = (name: string, status: "disabled" | "active", description: string): TargetCommand => ({
  name,
  description,
  arguments: [theApp()],
  reaches: "target",
  run: async (target, { args: [id] }: Given<[string]>) => {
    const app = await setAppStatus(target, { appId: id, status }, await target.operator());
    return { json: app, text: `${app.app_id} is ${app.status}. ${CACHE_NOTE}` };
  },
});

export const APPS: GroupDefinition = {
  name: "apps",
  description: "client apps",
  commands: [
    create,
    list,
    show,
    syncLimits,
    setStatus("disable", "disabled", "refuse the app's keys with 403 app_disabled"),
    setStatus("enable", "active", "accept the app's keys again"),
  ],
};
