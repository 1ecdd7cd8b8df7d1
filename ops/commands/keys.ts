/** `ops keys`: rotate, revoke and list an app's API keys. */
import { type Command, Option } from "commander";
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
import { EXIT } from "../failures.ts";
import { fields, table } from "../output.ts";
import type { Run } from "../program.ts";

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

export function addKeysCommands(program: Command, run: Run): void {
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
    .option("--name <name>", "a name for the new key (1 to 60 characters)")
    .action((id: string, options: { grace?: number; name?: string }, command: Command) =>
      run(command, async (target) => {
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
      }),
    );

  keys
    .command("revoke")
    .description("revoke one live key (--key) or every live key (--all), at once")
    .argument("<app-id>", "the app", appId)
    .addOption(new Option("--key <prefix>", "the key's prefix, as keys list shows it").conflicts("all"))
    .option("--all", "every live key of the app")
    .action((id: string, options: { key?: string; all?: boolean }, command: Command) =>
      run(command, async (target) => {
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
      }),
    );

  keys
    .command("list")
    .description("the app's keys: prefix, created, expires, status (never the key)")
    .argument("<app-id>", "the app", appId)
    .action((id: string, _options: object, command: Command) =>
      run(command, async (target) => {
        const list = await listAppKeys(target, id);
        return { json: { app_id: id, keys: list }, text: keysTable(list) };
      }),
    );
}
