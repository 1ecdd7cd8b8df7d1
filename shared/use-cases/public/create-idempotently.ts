import { IdempotencyRecordError, VerificationNotFoundError } from "../../domain/errors.ts";
import type { NewVerification } from "../../domain/new-verification.ts";
import type { VerificationResource } from "../../domain/responses/verification.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource } from "../../domain/verification.ts";
import type { Idempotency, Invocation } from "../../ports/idempotency.ts";
import type { SubjectDigest } from "../../ports/subject-digest.ts";
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

/**
 * The time a request keeps to answer after its hold on the key ends: the record in progress
 * lapses before the function's own deadline, so it never outlives the request.
 */
const ANSWER_MARGIN_MS = 500;

/** The hold on the key: the invocation's remaining time, less the margin to answer in. */
function holdOf(invocation: Invocation): Invocation {
  return { getRemainingTimeInMillis: () => Math.max(1, invocation.getRemainingTimeInMillis() - ANSWER_MARGIN_MS) };
}

/**
 * Runs `step` until it succeeds or the hold ends, backing off from 50 ms to at most 500 ms;
 * whether it succeeded. A dependency that keeps failing therefore costs the request the rest of
 * its time, never the client a key held past the request.
 */
async function persistently(step: () => Promise<unknown>, hold: Invocation): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await step();
      return true;
    } catch {
      // The dependency is still failing: wait a little and try again, while the hold lasts.
      const left = hold.getRemainingTimeInMillis() - 1;
      if (left <= 0) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, 500, 25 * 2 ** attempt)));
    }
  }
}

/**
 * What the idempotency record keeps of the first answer: nothing that names the person (the
 * reference, the file name, the metadata), so an erasure leaves none of it behind in the record.
 */
function withoutPersonalFields(resource: VerificationResource): VerificationResource {
  return { ...resource, external_reference_id: null, original_filename: null, metadata: {} };
}

/**
 * What a reuse of the key must repeat, as the idempotency record fingerprints it: the body, its
 * identity numbers replaced by their keyed digests, so not even an unkeyed hash of a number is
 * stored (11 digits are too few for a hash to hide them).
 */
async function fingerprinted(subjects: SubjectDigest, request: NewVerification): Promise<unknown> {
  const { document_keys: keys, expected_subject: expected } = request;
  return {
    ...request,
    ...(keys ? { document_keys: { ...keys, identity_number: await subjects.digest(keys.identity_number) } } : {}),
    ...(expected?.identity_number !== undefined
      ? { expected_subject: { ...expected, identity_number: await subjects.digest(expected.identity_number) } }
      : {}),
  };
}

/**
 * The create use case behind an Idempotency-Key: scoped to (app, key), the body compared on
 * reuse. Only a successful result is kept: a thrown error frees the key, so a failed request
 * may be retried with the same key.
 *
 * A replay answers the first answer, its personal fields read from the verification again; once
 * the verification is erased, a replay answers it as it is now (as `GET` does), erased.
 *
 * The idempotency records cannot be written in one transaction with the verification. When
 * the result (or the removal of the in-progress record) cannot be saved, the request undoes
 * what it wrote: it removes the verification nobody was given and frees the key, so the
 * client's retry makes the one verification for that key, at once. The record in progress
 * holds the key only for the request's own time (less the margin to answer in), and the
 * undoing is tried again for as long as that hold lasts: when the request answers, the key is
 * free, either removed or lapsed, and never `409` to a retry that follows the answer.
 */
export async function idempotentCreateVerification(
  deps: CreateVerificationDeps & {
    verifications: Pick<VerificationStore, "create" | "discardNew" | "get">;
    idempotency: Idempotency;
  },
  input: IdempotentCreateInput,
  invocation: Invocation,
): Promise<IdempotentCreateResult> {
  const hold = holdOf(invocation);
  // Set once the use case runs, which means this call holds the in-progress record.
  let run: { verificationId?: string; resource?: VerificationResource } | undefined;
  let answer: { resource: VerificationResource; replayed: boolean };
  const key = {
    appId: input.appId,
    idempotencyKey: input.idempotencyKey,
    request: await fingerprinted(deps.subjects, input.request),
  };
  try {
    answer = await deps.idempotency.run(key, hold, async () => {
      run = {};
      const resource = await createVerification(deps, input);
      run.verificationId = resource.verification_id;
      run.resource = resource;
      return { resource: withoutPersonalFields(resource) };
    });
  } catch (error) {
    if (run && error instanceof IdempotencyRecordError) await release(run.verificationId);
    throw error;
  }
  if (!answer.replayed && run?.resource) return { resource: run.resource, replayed: false };
  return { resource: await replay(answer.resource), replayed: true };

  /** The first answer, with the personal fields the verification still holds; or the erased verification. */
  async function replay(first: VerificationResource): Promise<VerificationResource> {
    const item = await deps.verifications.get(first.verification_id);
    if (!item) throw new VerificationNotFoundError();
    if (item.redacted_at !== undefined) return toResource(item, isoSeconds(deps.clock.now()));
    return {
      ...first,
      external_reference_id: item.external_reference_id ?? null,
      original_filename: item.original_filename ?? null,
      metadata: item.metadata ?? {},
    };
  }

  async function release(verificationId: string | undefined): Promise<void> {
    // While the verification may still exist, the key is not freed: that would let the retry
    // make a second one at once. If it cannot be removed for the whole hold, the hold lapses as
    // the request answers all the same, and the one left waits for its upload until its deadline.
    if (verificationId && !(await persistently(() => deps.verifications.discardNew(verificationId), hold))) return;
    await persistently(() => deps.idempotency.release(key), hold);
  }
}
