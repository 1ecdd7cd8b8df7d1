import { IdempotencyRecordError } from "../../domain/errors.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import type { Idempotency, Invocation } from "../../ports/idempotency.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import {
  type CreateVerificationDeps,
  type CreateVerificationInput,
  createVerification,
} from "./create-verification.ts";

export interface IdempotentCreateInput extends CreateVerificationInput {
  idempotencyKey: string;
}

export interface IdempotentCreateResult {
  resource: VerificationResource;
  replayed: boolean;
}

/** How often a failed request tries each step of undoing what it wrote before it answers 5xx. */
const RELEASE_TRIES = 8;

/** Runs `step` until it succeeds or the tries run out, backing off from 25 ms; whether it succeeded. */
async function persistently(step: () => Promise<unknown>): Promise<boolean> {
  for (let attempt = 1; attempt <= RELEASE_TRIES; attempt += 1) {
    try {
      await step();
      return true;
    } catch {
      // The dependency is still failing: wait a little and try again.
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
    }
  }
  return false;
}

/**
 * The create use case behind an Idempotency-Key: scoped to (app, key), the body compared on
 * reuse. Only a successful result is kept: a thrown error frees the key, so a failed request
 * may be retried with the same key.
 *
 * The idempotency records cannot be written in one transaction with the verification. When
 * the result (or the removal of the in-progress record) cannot be saved, the request undoes
 * what it wrote: it removes the verification nobody was given and frees the key, so the
 * client's retry makes the one verification for that key, at once, instead of meeting `409`
 * until the function's timeout and then leaving an orphan behind.
 */
export async function idempotentCreateVerification(
  deps: CreateVerificationDeps & {
    verifications: Pick<VerificationStore, "create" | "discardNew">;
    idempotency: Idempotency;
  },
  input: IdempotentCreateInput,
  invocation: Invocation,
): Promise<IdempotentCreateResult> {
  // Set once the use case runs, which means this call holds the in-progress record.
  let run: { verificationId?: string } | undefined;
  try {
    return await deps.idempotency.run(input, invocation, async () => {
      run = {};
      const resource = await createVerification(deps, input);
      run.verificationId = resource.verification_id;
      return { resource };
    });
  } catch (error) {
    if (run && error instanceof IdempotencyRecordError) await release(run.verificationId);
    throw error;
  }

  async function release(verificationId: string | undefined): Promise<void> {
    // While the verification may still exist, the key stays held: freeing it would let the retry make a second one.
    if (verificationId && !(await persistently(() => deps.verifications.discardNew(verificationId)))) return;
    await persistently(() => deps.idempotency.release(input));
  }
}
