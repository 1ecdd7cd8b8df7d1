import type { RequestRecord } from "../domain/requests.ts";

/** Where the public API's requests are kept for a while, by their request id. */
export interface RequestLog {
  /** Keeps the request `KEEP_REQUESTS_DAYS` days. */
  record(request: RequestRecord): Promise<void>;
  find(requestId: string): Promise<RequestRecord | undefined>;
}
