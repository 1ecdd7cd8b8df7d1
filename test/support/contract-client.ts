/**
 * A customer backend that follows the contract's retry rules: it retries a create with the
 * same Idempotency-Key on 409 in progress, 429, 5xx and network errors, honours
 * Retry-After, backs off otherwise, and gives up after a bounded number of tries.
 */
import type { VerificationResource } from "#shared/domain/responses/verification";
import { Customer, expectProblem, type Reply, upload } from "./client.ts";

export interface RetryStats {
  requests: number;
  retries: number;
  networkErrors: number;
  /** Every status the API answered, with how often. */
  statuses: Record<number, number>;
  /** Requests that were still failing after the last try. */
  gaveUp: number;
}

const RETRYABLE_CONFLICT = "idempotency_request_in_progress";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ContractClient {
  readonly stats: RetryStats = { requests: 0, retries: 0, networkErrors: 0, statuses: {}, gaveUp: 0 };
  private readonly customer: Customer;

  constructor(
    baseUrl: string,
    apiKey: string,
    private readonly maxTries = 15,
  ) {
    this.customer = new Customer(baseUrl, apiKey);
  }

  /** The same request until it stops being retryable or the tries run out: the last reply, if any came. */
  private async retrying(send: () => Promise<Reply>): Promise<Reply | undefined> {
    let last: Reply | undefined;
    for (let attempt = 1; attempt <= this.maxTries; attempt += 1) {
      if (attempt > 1) this.stats.retries += 1;
      this.stats.requests += 1;
      let reply: Reply;
      try {
        reply = await send();
      } catch (error) {
        // A failed assertion about a reply is the test's business; only network errors are retried.
        if (!(error instanceof TypeError)) throw error;
        this.stats.networkErrors += 1;
        await sleep(backoff(attempt));
        continue;
      }
      this.stats.statuses[reply.status] = (this.stats.statuses[reply.status] ?? 0) + 1;
      last = reply;
      if (reply.status >= 400) {
        const code = (reply.json as { code?: string } | undefined)?.code ?? "";
        // Every error is a problem+json with a contract code, a Request-Id and no internals.
        expectProblem(reply, reply.status, code);
        const retryable = reply.status >= 500 || reply.status === 429 || code === RETRYABLE_CONFLICT;
        if (!retryable) return reply;
        const retryAfter = Number(reply.headers.get("retry-after"));
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt));
        continue;
      }
      return reply;
    }
    this.stats.gaveUp += 1;
    return last;
  }

  create(body: unknown, idempotencyKey: string) {
    return this.retrying(() => this.customer.create(body, idempotencyKey));
  }

  confirm(id: string) {
    return this.retrying(() => this.customer.confirm(id));
  }

  get(id: string) {
    return this.retrying(() => this.customer.get(id));
  }

  /** PUTs the document to its presigned URL, retrying 5xx and dropped connections; the final status. */
  async upload(resource: VerificationResource, document: Uint8Array): Promise<number | undefined> {
    for (let attempt = 1; attempt <= this.maxTries; attempt += 1) {
      if (attempt > 1) this.stats.retries += 1;
      this.stats.requests += 1;
      try {
        const response = await upload(resource, document);
        await response.arrayBuffer();
        if (response.status < 500) return response.status;
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        this.stats.networkErrors += 1;
      }
      await sleep(backoff(attempt));
    }
    this.stats.gaveUp += 1;
    return undefined;
  }
}

/** Exponential from 50 ms, at most 1 s, with full jitter. */
function backoff(attempt: number): number {
  return Math.random() * Math.min(1000, 50 * 2 ** attempt);
}
