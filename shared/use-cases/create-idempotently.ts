import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
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

/**
 * The create use case behind an Idempotency-Key: scoped to (app, key), kept 24 h, the body
 * compared on reuse. Only a successful result is stored: a thrown error removes the
 * in-progress record, so a failed request may be retried with the same key.
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
  const once = makeIdempotent(
    async (input: IdempotentCreateInput, _context: Context): Promise<IdempotentCreateResult> => ({
      resource: await createVerification(deps, input),
      replayed: false,
    }),
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
      throw error;
    }
  };
}
