/** The invocation's remaining time: a record in progress holds its key no longer than this. */
export interface Invocation {
  getRemainingTimeInMillis(): number;
}

/** What names a key (the app and its Idempotency-Key) and what a reuse must repeat (`request`). */
export interface IdempotentInput {
  appId: string;
  idempotencyKey: string;
  request: unknown;
}

/** At most one run per key, kept for a while; a retry with the key gets the first run's result. */
export interface Idempotency {
  /**
   * `work`'s result, `replayed: false`, or the stored result of the first run with this key,
   * `replayed: true`. Throws IdempotencyKeyReusedError for another request under the key,
   * IdempotencyInProgressError while the first run still runs, and IdempotencyRecordError when
   * the record could not be written or removed (domain/errors.ts). A `work` that throws keeps
   * nothing: the key is free again.
   */
  run<R extends object>(
    input: IdempotentInput,
    invocation: Invocation,
    work: () => Promise<R>,
  ): Promise<R & { replayed: boolean }>;
  /** Frees the key, so the next request with it runs anew. */
  release(input: IdempotentInput): Promise<void>;
}
