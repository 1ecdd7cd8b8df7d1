/** What a failure tells the operator: its exit code, its error code and one line of message. */
import { CommanderError } from "commander";
import { InvalidInputError, LimitReachedError, NotFoundError, RefusedError } from "#shared/domain/errors";
import { TargetUnavailableError } from "./target.ts";

/** Exit codes, documented in the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2, notFound: 3, refused: 4 } as const;

export interface Failure {
  exit: number;
  code: string;
  message: string;
}

/** Never a stack, never a secret (no command takes a key or secret as input). */
export function describeFailure(error: unknown): Failure {
  if (error instanceof CommanderError) {
    return { exit: EXIT.usage, code: "usage_error", message: error.message.replace(/^error: /, "") };
  }
  if (error instanceof InvalidInputError) return { exit: EXIT.usage, code: "invalid_input", message: error.message };
  if (error instanceof NotFoundError) return { exit: EXIT.notFound, code: error.code, message: error.message };
  if (error instanceof RefusedError || error instanceof LimitReachedError) {
    return { exit: EXIT.refused, code: error.code, message: error.message };
  }
  if (error instanceof TargetUnavailableError) {
    return { exit: EXIT.failed, code: "target_unavailable", message: error.message };
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { exit: EXIT.failed, code: "failed", message: text.split("\n")[0] ?? text };
}
