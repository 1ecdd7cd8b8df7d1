/**
 * What an ops command is, as data: its name, description, arguments, options and the work it
 * runs. The command files under `commands/` are tables of these; `program.ts` turns them into
 * commander's commands. Nothing here imports a command file or the program.
 */
import { Argument, type Command, Option } from "commander";
import type { Output } from "./output.ts";
import type { Target, TargetOptions } from "./target.ts";

/** What a command's work is handed: its arguments and options as their parsers gave them, and the command (to refuse usage). */
export interface Given<Args extends unknown[] = unknown[], Options = unknown> {
  args: Args;
  options: Options;
  command: Command;
}

interface Described {
  name: string;
  description: string;
  arguments?: readonly Argument[];
  options?: readonly Option[];
}

/**
 * A command whose work reaches the target (the tables, the stack) the global options name.
 * `run` is a method, so a definition may name the arguments and options its own parsers give.
 */
export interface TargetCommand extends Described {
  reaches: "target";
  run(target: Target, given: Given): Promise<Output>;
}

/** A command whose work reaches no table or stack: it is given the global options and the environment. */
export interface AloneCommand extends Described {
  reaches: "nothing";
  run(given: Given, target: TargetOptions, env: NodeJS.ProcessEnv): Promise<Output>;
}

export type CommandDefinition = TargetCommand | AloneCommand;

/** A command group: `ops <name> <command>`. */
export interface GroupDefinition {
  name: string;
  description: string;
  commands: readonly CommandDefinition[];
}

/** A positional argument, parsed by `parse` when given. */
export function argument<T>(name: string, description: string, parse?: (value: string) => T): Argument {
  const made = new Argument(name, description);
  return parse ? made.argParser(parse) : made;
}

/** An option, parsed by `parse` when given (with the value so far, for an option given more than once). */
export function option<T>(flags: string, description: string, parse?: (value: string, previous: T) => T): Option {
  const made = new Option(flags, description);
  return parse ? made.argParser(parse) : made;
}

/** An option the command cannot run without. */
export function requiredOption<T>(
  flags: string,
  description: string,
  parse?: (value: string, previous: T) => T,
): Option {
  return option(flags, description, parse).makeOptionMandatory();
}
