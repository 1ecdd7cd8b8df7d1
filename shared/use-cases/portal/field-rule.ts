/** A rule shared with the ops command, its refusal of a value told as the portal tells a field's. */
import { type FieldError, InvalidInputError, RefusedError, ValidationError } from "../../domain/errors.ts";

/**
 * Runs a rule shared with the ops command, whose refusal of a value (a name, a URL) is the
 * portal's `validation_failed` on `field`.
 */
export async function asFieldRule<T>(field: string, rule: () => T | Promise<T>): Promise<T> {
  try {
    return await rule();
  } catch (error) {
    const refused =
      (error instanceof InvalidInputError && error.code === "invalid_input") ||
      (error instanceof RefusedError && error.code === "webhook_url_not_allowed");
    if (!refused) throw error;
    const fieldError: FieldError = { field, code: "not_allowed", message: error.message };
    throw new ValidationError([fieldError]);
  }
}
