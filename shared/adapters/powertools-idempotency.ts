import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyPersistenceLayerError,
  IdempotencyValidationError,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import type { BasePersistenceLayer } from "@aws-lambda-powertools/idempotency/persistence";
import type { Context } from "aws-lambda";
import { IdempotencyInProgressError, IdempotencyKeyReusedError, IdempotencyRecordError } from "../domain/errors.ts";
import type { Idempotency, IdempotentInput, Invocation } from "../ports/idempotency.ts";

type ConfigOptions = ConstructorParameters<typeof IdempotencyConfig>[0];

/**
 * Idempotency with Powertools, records in its DynamoDB table: keyed by `[appId, idempotencyKey]`,
 * the body compared on `request`, only successful results stored.
 */
export class PowertoolsIdempotency implements Idempotency {
  private readonly options: ConfigOptions;

  constructor(
    private readonly persistence: BasePersistenceLayer,
    /** A fixed prefix keeps records valid across deployments that rename the function. */
    private readonly keyPrefix: string,
    keepSeconds: number,
  ) {
    this.options = {
      eventKeyJmesPath: "[appId, idempotencyKey]",
      payloadValidationJmesPath: "request",
      expiresAfterSeconds: keepSeconds,
      // The record's key and the request's fingerprint: SHA-256, not the library's MD5 default.
      hashFunction: "sha256",
      throwOnNoIdempotencyKey: true,
      responseHook: (response) => ({ ...(response as object), replayed: true }),
    };
  }

  async run<R extends object>(
    input: IdempotentInput,
    invocation: Invocation,
    work: () => Promise<R>,
  ): Promise<R & { replayed: boolean }> {
    const once = makeIdempotent(
      async (_input: IdempotentInput, _context: Context): Promise<R & { replayed: boolean }> => ({
        ...(await work()),
        replayed: false,
      }),
      // A configuration of its own per run: the library keeps the invocation on it, and the
      // record in progress lapses at that invocation's end, never at another's running beside it.
      { persistenceStore: this.persistence, config: new IdempotencyConfig(this.options), keyPrefix: this.keyPrefix },
    );
    try {
      return await once(input, invocation as Context);
    } catch (error) {
      if (error instanceof IdempotencyValidationError) throw new IdempotencyKeyReusedError();
      if (error instanceof IdempotencyAlreadyInProgressError) throw new IdempotencyInProgressError();
      if (error instanceof IdempotencyPersistenceLayerError) throw new IdempotencyRecordError(error);
      throw error;
    }
  }

  async release(input: IdempotentInput): Promise<void> {
    await this.persistence.deleteRecord(input as unknown as Parameters<BasePersistenceLayer["deleteRecord"]>[0]);
  }
}
