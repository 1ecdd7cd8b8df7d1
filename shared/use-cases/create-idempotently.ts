import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import type { BasePersistenceLayer } from "@aws-lambda-powertools/idempotency/persistence";
import type { Context } from "aws-lambda";
import { ApiError } from "../errors.ts";
import type { UploadStore } from "../upload-store.ts";
import type { VerificationResource } from "../verification.ts";
import type { VerificationStore } from "../verification-store.ts";
import { type CreateVerificationInput, createVerification } from "./create-verification.ts";

/** How long a key and its first response are kept. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;

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
 * The create use case behind an Idempotency-Key: scoped to (app, key), kept 24 h, the body
 * compared on reuse. Only a successful result is stored: a thrown error removes the
 * in-progress record, so a failed request may be retried with the same key.
 *
 * The idempotency table cannot write the verification and the key's result in one
 * transaction. When the result (or the removal of the in-progress record) cannot be saved,
 * the request undoes what it wrote: it removes the verification nobody was given and frees
 * the key, so the client's retry makes the one verification for that key, at once, instead
 * of meeting `409` until the function's timeout and then leaving an orphan behind.
 */
export function idempotentCreateVerification(deps: {
  verifications: VerificationStore;
  uploads: UploadStore;
  persistence: BasePersistenceLayer;
}): (input: IdempotentCreateInput, context: Context) => Promise<IdempotentCreateResult> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: "[appId, idempotencyKey]",
    payloadValidationJmesPath: "request",
    expiresAfterSeconds: IDEMPOTENCY_SECONDS,
    throwOnNoIdempotencyKey: true,
    responseHook: (response) => ({ ...(response as object), replayed: true }),
  });
  // Per call: set once the use case runs, which means this call holds the in-progress record.
  const runs = new WeakMap<IdempotentCreateInput, { verificationId?: string }>();
  const once = makeIdempotent(
    async (input: IdempotentCreateInput, _context: Context): Promise<IdempotentCreateResult> => {
      const run: { verificationId?: string } = {};
      runs.set(input, run);
      const resource = await createVerification(deps, input);
      run.verificationId = resource.verification_id;
      return { resource, replayed: false };
    },
    // A fixed prefix keeps records valid across deployments that rename the function.
    { persistenceStore: deps.persistence, config, keyPrefix: "create-verification" },
  );
  return async (input, context) => {
    try {
      return await once(input, context);
    } catch (error) {
      if (error instanceof IdempotencyValidationError) {
        throw new ApiError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request body; use a new key for a new request",
        );
      }
      if (error instanceof IdempotencyAlreadyInProgressError) {
        throw new ApiError(
          "idempotency_request_in_progress",
          "A request with this Idempotency-Key is still being processed; retry after the time in Retry-After",
          { headers: { "Retry-After": "1" } },
        );
      }
      const run = runs.get(input);
      if (run && error instanceof IdempotencyPersistenceLayerError) await release(input, run.verificationId);
      throw error;
    }
  };

  async function release(input: IdempotentCreateInput, verificationId: string | undefined): Promise<void> {
    // While the verification may still exist, the key stays held: freeing it would let the retry make a second one.
    if (verificationId && !(await persistently(() => deps.verifications.discardNew(verificationId)))) return;
    await persistently(() =>
      deps.persistence.deleteRecord(input as unknown as Parameters<BasePersistenceLayer["deleteRecord"]>[0]),
    );
  }
}
