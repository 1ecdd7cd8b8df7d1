/**
 * The ops command: a thin adapter from the command line to the app, key and webhook use
 * cases in `shared/use-cases/` and to the staff directory, aimed at the local runtime or a
 * deployed environment. This
 * file holds the program, its global options, how a command's definition becomes commander's
 * command, and how an answer or a failure is written; each command group is a table of
 * definitions (`definitions.ts`) in `commands/`.
 */
import { Command, CommanderError, Option } from "commander";
import { ENVIRONMENTS } from "#shared/domain/environments";
import { APPS } from "./commands/apps.ts";
import { AUDIT } from "./commands/audit.ts";
import { ERASE } from "./commands/erase.ts";
import { ISSUER } from "./commands/issuer.ts";
import { KEYS } from "./commands/keys.ts";
import { ORGS } from "./commands/orgs.ts";
import { STAFF } from "./commands/staff.ts";
import { WEBHOOKS } from "./commands/webhooks.ts";
import type { CommandDefinition, GroupDefinition } from "./definitions.ts";
import { describeFailure, EXIT } from "./failures.ts";
import type { Output } from "./output.ts";
import { resolveTarget, type Target, type TargetOptions } from "./target.ts";

export interface OpsIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** Every command and command group, in the order the help lists them. */
const COMMANDS: readonly (GroupDefinition | CommandDefinition)[] = [
  APPS,
  KEYS,
  WEBHOOKS,
  STAFF,
  ORGS,
  ERASE,
  AUDIT,
  ISSUER,
];

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

/** The program and its global options: what it targets, and how it answers. */
function opsProgram(io: OpsIo): Command {
  return (
    new Command("ops")
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
      .addOption(jsonOption())
  );
}

/** Refuses target options that only name a deployed environment when none is named. */
function requireEnvForTargetOptions(global: TargetOptions, command: Command): void {
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
}

/** Where a command's answer goes, and whether it is written as JSON. */
interface Answer {
  output?: Output;
  json: boolean;
}

/** Runs a definition's work with what commander parsed, and keeps its answer. */
async function runDefinition(
  program: Command,
  definition: CommandDefinition,
  values: unknown[],
  io: OpsIo,
  answer: Answer,
): Promise<void> {
  const command = values.at(-1) as Command;
  const given = { args: values.slice(0, -2), options: values.at(-2), command };
  const global = program.opts<TargetOptions & { json?: boolean }>();
  answer.json = Boolean(global.json || command.opts<{ json?: boolean }>().json);
  if (definition.reaches === "nothing") {
    answer.output = await definition.run(given, global, io.env);
    return;
  }
  requireEnvForTargetOptions(global, command);
  const target: Target = await resolveTarget(global, io.env);
  try {
    answer.output = await definition.run(target, given);
  } finally {
    target.close();
  }
}

/** A definition as commander's command under `parent`; each command takes `--json` after its own options too. */
function addCommand(
  parent: Command,
  definition: CommandDefinition,
  run: (definition: CommandDefinition, values: unknown[]) => Promise<void>,
): void {
  const command = parent.command(definition.name).description(definition.description);
  for (const argument of definition.arguments ?? []) command.addArgument(argument);
  for (const option of definition.options ?? []) command.addOption(option);
  // Positional options keep the program's --json before the command; each command takes it after too.
  command.addOption(jsonOption()).action((...values: unknown[]) => run(definition, values));
}

/** Every command of the table on `program`. */
function addCommands(program: Command, run: (definition: CommandDefinition, values: unknown[]) => Promise<void>): void {
  for (const entry of COMMANDS) {
    if (!("commands" in entry)) {
      addCommand(program, entry, run);
      continue;
    }
    const group = program.command(entry.name).description(entry.description);
    for (const definition of entry.commands) addCommand(group, definition, run);
  }
}

/** The one line (or JSON object) a failure is written as, and its exit status. */
function reportFailure(error: unknown, json: boolean, io: OpsIo): number {
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

export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  // Until a command runs (a usage error first), whether --json appears at all.
  const answer: Answer = { json: argv.includes("--json") };
  const program = opsProgram(io);
  addCommands(program, (definition, values) => runDefinition(program, definition, values, io, answer));
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    return reportFailure(error, answer.json, io);
  }
  const { output, json } = answer;
  if (output) io.stdout(json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.text}\n`);
  return output?.exit ?? EXIT.ok;
}
