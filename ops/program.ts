/**
 * The ops command: a thin adapter from the command line to the app, key and webhook use
 * cases in `shared/use-cases/` and to the staff directory, aimed at the local runtime or a
 * deployed environment. This
 * file holds the program, its global options and how an answer or a failure is written; each
 * command group is in `commands/`.
 */
import { Command, CommanderError, Option } from "commander";
import { ENVIRONMENTS } from "#shared/domain/environments";
import { addAppsCommands } from "./commands/apps.ts";
import { addAuditCommands } from "./commands/audit.ts";
import { addEraseCommand } from "./commands/erase.ts";
import { addIssuerCommands } from "./commands/issuer.ts";
import { addKeysCommands } from "./commands/keys.ts";
import { addOrgsCommands } from "./commands/orgs.ts";
import { addStaffCommands } from "./commands/staff.ts";
import { addWebhooksCommands } from "./commands/webhooks.ts";
import { describeFailure, EXIT } from "./failures.ts";
import type { Output } from "./output.ts";
import { resolveTarget, type Target, type TargetOptions } from "./target.ts";

export interface OpsIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** Runs a command's `work` against the target the global options name, and keeps its answer. */
export type Run = (command: Command, work: (target: Target) => Promise<Output>) => Promise<void>;
/** Runs a command's `work` that reaches no table or stack (it is given the global options and the environment), and keeps its answer. */
export type RunAlone = (
  command: Command,
  work: (options: TargetOptions, env: NodeJS.ProcessEnv) => Promise<Output>,
) => Promise<void>;

const TARGET_FLAGS = [
  "--env",
  "--region",
  "--stack",
  "--apps-table",
  "--events-table",
  "--audit-table",
  "--secrets-key-arn",
  "--sealing-key-id",
  "--usage-plan-id",
  "--staff-user-pool-id",
  "--portal-user-pool-id",
  "--data-dir",
];

const jsonOption = () => new Option("--json", "answer in JSON");

/** The commands that act: those without subcommands. */
function leaves(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
}

export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  let output: Output | undefined;
  // Until a command runs (a usage error first), whether --json appears at all.
  let json = argv.includes("--json");

  const program = new Command("ops")
    .description("Operate client apps, API keys, webhook destinations, organisations and staff of one environment")
    // Target options go before the command, so `apps create --env` is the app's environment.
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
    .option("--audit-table <name>", "audit table name, instead of the stack output AuditTableName")
    .option("--secrets-key-arn <arn>", "the retired sealing key's secret, instead of the stack output SecretsKeyArn")
    .option("--sealing-key-id <arn>", "the KMS sealing key, instead of the stack output SealingKeyArn")
    .option("--usage-plan-id <id>", "the apps' usage plan, instead of the stack output UsagePlanId")
    .option("--staff-user-pool-id <id>", "staff user pool, instead of the stack output StaffUserPoolId")
    .option("--portal-user-pool-id <id>", "customer user pool, instead of the stack output PortalUserPoolId")
    .option("--data-dir <path>", "the local runtime's data folder (default: LOCAL_DATA_DIR or .local)")
    .addOption(jsonOption());

  const run: Run = async (command, work) => {
    const global = program.opts<TargetOptions & { json?: boolean }>();
    json = Boolean(global.json || command.opts<{ json?: boolean }>().json);
    if (
      !global.env &&
      (global.region ||
        global.stack ||
        global.appsTable ||
        global.eventsTable ||
        global.auditTable ||
        global.secretsKeyArn ||
        global.sealingKeyId ||
        global.usagePlanId ||
        global.staffUserPoolId ||
        global.portalUserPoolId)
    ) {
      command.error(
        "--region, --stack, --apps-table, --events-table, --audit-table, --secrets-key-arn, --sealing-key-id, --usage-plan-id, --staff-user-pool-id and --portal-user-pool-id need --env",
        { exitCode: EXIT.usage },
      );
    }
    const target = await resolveTarget(global, io.env);
    try {
      output = await work(target);
    } finally {
      target.close();
    }
  };

  addAppsCommands(program, run);
  addKeysCommands(program, run);
  addWebhooksCommands(program, run);
  addStaffCommands(program, run);
  addOrgsCommands(program, run);
  addEraseCommand(program, run);
  addAuditCommands(program, run);
  const runAlone: RunAlone = async (command, work) => {
    json = Boolean(program.opts<{ json?: boolean }>().json || command.opts<{ json?: boolean }>().json);
    output = await work(program.opts<TargetOptions>(), io.env);
  };
  addIssuerCommands(program, runAlone);
  // Positional options keep the program's --json before the command; each command takes it after too.
  for (const command of leaves(program)) command.addOption(jsonOption());

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
  return output?.exit ?? EXIT.ok;
}
