import type { RequestFilter, RequestPosition, RequestRecord } from "../domain/requests.ts";

/** Where the public API's requests are kept for a while, by their request id. */
export interface RequestLog {
  /** Keeps the request `KEEP_REQUESTS_DAYS` days. */
  record(request: RequestRecord): Promise<void>;
  find(requestId: string): Promise<RequestRecord | undefined>;
}

/** The same requests by app and time, as a developer browses them. */
export interface RequestHistory {
  /**
   * Up to `limit` of the app's requests that `filter` lets through, newest first, after `before`;
   * `last` is where to go on from while more may follow (a page may hold fewer than `limit`).
   */
  recentForApp(
    appId: string,
    filter: RequestFilter,
    limit: number,
    before?: RequestPosition,
  ): Promise<{ items: RequestRecord[]; last: RequestPosition | undefined }>;
}
