import type { IssuerMessage } from "../domain/issuer.ts";

/**
 * Where lookups of the issuer wait for the one reader that asks: a verification's first as soon
 * as it needs one, each retry after its backoff. Apart from the change stream, so a busy issuer
 * holds up nothing else.
 */
export interface IssuerQueue {
  /** Queues `message`, to be handed to the reader no sooner than `delaySeconds` from now (at most 900). */
  send(message: IssuerMessage, delaySeconds: number): Promise<void>;
}
