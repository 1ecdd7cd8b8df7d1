/**
 * An app's request log as its developers debug it: every kept request (each that could change
 * something, and each refused), newest first, filtered by status class and time, with why a
 * refused one was refused. A kept request holds no personal data (paths, statuses, codes, field
 * paths), so reading the log is not recorded in the audit trail.
 */
import { decodeCursor, encodeCursor } from "../../domain/lists.ts";
import type { PortalCaller } from "../../domain/organizations.ts";
import { appRequestPositionSchema, type appRequestsQuerySchema } from "../../domain/portal.ts";
import { KEEP_REQUESTS_DAYS, type RequestRecord } from "../../domain/requests.ts";
import type { KeptRequest } from "../../domain/responses/portal.ts";
import { isoSeconds } from "../../domain/time.ts";
import type * as z from "../../domain/zod.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { RequestHistory } from "../../ports/request-log.ts";
import { memberApp } from "./member-app.ts";

/** A kept request as the portal shows it. */
export function keptRequestView(request: RequestRecord): KeptRequest {
  const { request_id, method, path, status, code, errors, verification_id, at } = request;
  return {
    request_id,
    method,
    path,
    status,
    code: code ?? null,
    errors: errors ?? [],
    verification_id: verification_id ?? null,
    at,
  };
}

export type AppRequestsQuery = z.infer<typeof appRequestsQuerySchema>;

/** The app's kept requests of the last `KEEP_REQUESTS_DAYS` days (or from `since`), newest first. */
export async function memberAppRequests(
  deps: { apps: Pick<AppStore, "getApp">; requests: RequestHistory; clock: Clock },
  caller: PortalCaller,
  appId: string,
  query: AppRequestsQuery,
): Promise<{ data: KeptRequest[]; next_cursor: string | null }> {
  await memberApp(deps.apps, caller.member, appId);
  const oldest = deps.clock.now().getTime() - KEEP_REQUESTS_DAYS * 86_400_000;
  const since = isoSeconds(new Date(Math.max(oldest, query.since === undefined ? oldest : Date.parse(query.since))));
  const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor, appRequestPositionSchema).after;
  const { items, last } = await deps.requests.recentForApp(
    appId,
    {
      since,
      ...(query.until === undefined ? {} : { until: isoSeconds(new Date(query.until)) }),
      ...(query.status === undefined ? {} : { statusClass: query.status }),
    },
    query.limit,
    before,
  );
  return { data: items.map(keptRequestView), next_cursor: last ? encodeCursor({ after: last }) : null };
}
