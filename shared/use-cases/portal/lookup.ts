/**
 * Finding a verification across every app of the caller's organisation: by its id, by the
 * `request_id` of a request about it (or of a refused one, shown on its own), or by the
 * `external_reference_id` it was created with; with nothing to look up, the most recent ones.
 * Each lookup shows personal data: it is recorded like a search.
 */
import type { AppItem } from "../../domain/apps.ts";
import { isId } from "../../domain/ids.ts";
import type { PortalCaller } from "../../domain/organizations.ts";
import type { RequestRecord } from "../../domain/requests.ts";
import type { LookupMatch } from "../../domain/responses/portal.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource, type VerificationItem } from "../../domain/verification.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import type { RequestLog } from "../../ports/request-log.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { recordRead } from "./audit-records.ts";
import { keptRequestView } from "./requests.ts";

/** Every app of the organisation (at most 20 today: one page). */
async function appsOfOrganization(
  organizations: Pick<OrganizationStore, "appsOf">,
  organizationId: string,
): Promise<AppItem[]> {
  const apps: AppItem[] = [];
  let after: string | undefined;
  do {
    const page = await organizations.appsOf(organizationId, 100, after);
    apps.push(...page.apps);
    after = page.more ? page.apps.at(-1)?.app_id : undefined;
  } while (after);
  return apps;
}

type Found = { item?: VerificationItem; request?: RequestRecord; matchedBy: LookupMatch["matched_by"] };

/** The request `q` names, if one of the organisation's apps made it, with the verification it was about. */
async function byRequestId(
  deps: { requests: Pick<RequestLog, "find">; verifications: Pick<VerificationStore, "get"> },
  apps: Map<string, AppItem>,
  q: string,
): Promise<Found | undefined> {
  const request = await deps.requests.find(q);
  if (!request || !apps.has(request.app_id)) return undefined;
  const item =
    request.verification_id === undefined ? undefined : await deps.verifications.get(request.verification_id);
  // A request may name a verification of another app (refused as not found): that one is not shown.
  return { request, item: item?.app_id === request.app_id ? item : undefined, matchedBy: "request_id" };
}

export async function lookupVerifications(
  deps: {
    organizations: Pick<OrganizationStore, "appsOf">;
    verifications: Pick<VerificationStore, "get" | "listForApp">;
    requests: Pick<RequestLog, "find">;
    audit: Pick<AuditTrail, "appendAll">;
    clock: Clock;
  },
  caller: PortalCaller,
  query: { q?: string; limit: number },
): Promise<{ data: LookupMatch[]; next_cursor: null }> {
  const now = isoSeconds(deps.clock.now());
  const apps = await appsOfOrganization(deps.organizations, caller.member.organizationId);
  const byId = new Map<string, AppItem>(apps.map((app) => [app.app_id, app]));
  const q = query.q?.trim();
  const found: Found[] = [];
  if (q && isId("verification", q)) {
    const item = await deps.verifications.get(q);
    if (item && byId.has(item.app_id)) found.push({ item, matchedBy: "verification_id" });
  } else if (q) {
    const request = await byRequestId(deps, byId, q);
    if (request) found.push(request);
  }
  const pages = await Promise.all(
    apps.map((app) =>
      // Without q, each app's newest; with one, the ones created with it as their reference.
      deps.verifications.listForApp({ appId: app.app_id, reference: q || undefined, now }, query.limit),
    ),
  );
  const listed = pages
    .flatMap((page) => page.items)
    .filter((item) => !found.some((one) => one.item?.verification_id === item.verification_id))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.verification_id.localeCompare(a.verification_id));
  found.push(
    ...listed.map((item) => ({ item, matchedBy: q ? ("external_reference_id" as const) : ("recent" as const) })),
  );
  const data = found.slice(0, query.limit).map(({ item, request, matchedBy }) => {
    const appId = item?.app_id ?? request?.app_id ?? "";
    return {
      app_id: appId,
      app_name: byId.get(appId)?.name ?? appId,
      matched_by: matchedBy,
      verification: item ? toResource(item, now) : null,
      request: request ? keptRequestView(request) : null,
    };
  });
  // The record names what was shown, and how it was found, never what was asked for.
  await recordRead(
    deps,
    caller,
    {
      action: "verifications.searched",
      detail: {
        lookup: [...new Set(data.map((match) => match.matched_by))].join(" ") || (q ? "nothing_found" : "recent"),
        results: String(data.length),
      },
    },
    data.flatMap(({ verification, app_id }) =>
      verification ? [{ verification_id: verification.verification_id, app_id }] : [],
    ),
  );
  return { data, next_cursor: null };
}
