/** `ops keys`: rotate, revoke and list an app's API keys. */
import { Option } from "commander";
import { AUTHORIZER } from "#shared/declarations/public-api";
import {
  DEFAULT_GRACE_SECONDS,
  type KeyView,
  listAppKeys,
  MAX_GRACE_SECONDS,
  revokeKeys,
  rotateKey,
} from "#shared/use-cases/accounts/keys";
import { appId, parseDuration } from "../arguments.ts";
import { argument, type Given, type GroupDefinition, option } from "../definitions.ts";
import { EXIT } from "../failures.ts";
import { fields, table } from "../output.ts";

/** Said after a change the authorizer may not see at once. */
export const CACHE_NOTE = `Decisions already cached by the authorizer stand for up to ${AUTHORIZER.cacheTtlSeconds} s.`;

export const keysTable = (keys: KeyView[]) =>
  table<KeyView>(
    [
      ["PREFIX", (key) => key.prefix],
      ["STATUS", (key) => key.status],
      ["NAME", (key) => key.name],
      ["CREATED", (key) => key.created_at],
      ["EXPIRES", (key) => key.expires_at],
      ["REVOKED", (key) => key.revoked_at],
      ["LAST USED", (key) => key.last_used_at],
    ],
    keys,
  );

const theApp = () => argument("<app-id>", "the app", appId);

export const KEYS: GroupDefinition = {
  name: "keys",
  description: "API keys",
  commands: [
    {
      name: "rotate",
      description: "issue a new key; the live key expires after the grace period",
      arguments: [theApp()],
      options: [
        option(
          "--grace <duration>",
          `how long the previous key keeps working: e.g. 30m, 24h, 7d (default 24h, at most ${MAX_GRACE_SECONDS / 86400}d)`,
          parseDuration,
        ),
        option("--name <name>", "a name for the new key (1 to 60 characters)"),
      ],
      reaches: "target",
      run: async (target, { args: [id], options }: Given<[string], { grace?: number; name?: string }>) => {
        const rotated = await rotateKey(
          target,
          { appId: id, graceSeconds: options.grace ?? DEFAULT_GRACE_SECONDS, name: options.name },
          await target.operator(),
        );
        const previous = rotated.expiring.length > 0 ? ["", "Previous keys", keysTable(rotated.expiring)] : [];
        return {
          json: rotated,
          text: [
            `New key for ${rotated.app_id}. Shown once: store it now, it cannot be read back.`,
            fields([
              ["API key", rotated.api_key],
              ["prefix", rotated.key.prefix],
              ["name", rotated.key.name],
            ]),
            ...previous,
          ].join("\n"),
        };
      },
    },
    {
      name: "revoke",
      description: "revoke one live key (--key) or every live key (--all), at once",
      arguments: [theApp()],
      options: [
        new Option("--key <prefix>", "the key's prefix, as keys list shows it").conflicts("all"),
        option("--all", "every live key of the app"),
      ],
      reaches: "target",
      run: async (target, { args: [id], options, command }: Given<[string], { key?: string; all?: boolean }>) => {
        if (!options.key && !options.all) command.error("give --key <prefix> or --all", { exitCode: EXIT.usage });
        const result = await revokeKeys(
          target,
          { appId: id, keys: options.all ? "all" : { prefix: options.key ?? "" } },
          await target.operator(),
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
      },
    },
    {
      name: "list",
      description: "the app's keys: prefix, created, expires, status (never the key)",
      arguments: [theApp()],
      reaches: "target",
      run: async (target, { args: [id] }: Given<[string]>) => {
        const list = await listAppKeys(target, id);
        return { json: { app_id: id, keys: list }, text: keysTable(list) };
      },
    },
  ],
};
