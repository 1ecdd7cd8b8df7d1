/** An organisation's verifications: search and view, each recorded as a read of personal data. */
import { VerificationNotFoundError } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import type { PortalCaller } from "../../domain/organizations.ts";
import type { VerificationListQuery } from "../../domain/searches.ts";
import { isoSeconds } from "../../domain/time.ts";
import { toResource } from "../../domain/verification.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import type { Clock } from "../../ports/clock.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { type ListedVerification, listVerifications } from "../public/list-verifications.ts";
import { recordAction, recordRead } from "./audit-records.ts";
import { memberApp } from "./member-app.ts";

type Deps = {
  apps: Pick<AppStore, "getApp">;
  audit: Pick<AuditTrail, "append" | "appendAll">;
  clock: Clock;
};

export async function searchMemberVerifications(
  deps: Deps & { verifications: Pick<VerificationStore, "listForApp"> },
  caller: PortalCaller,
  query: VerificationListQuery & { app_id: string },
): Promise<{ data: ListedVerification[]; next_cursor: string | null }> {
  await memberApp(deps.apps, caller.member, query.app_id);
  const page = await listVerifications(deps, query.app_id, query);
  // The record names what was shown, and which filters found it, never their values.
  const filters = (["external_reference_id", "status", "created_after", "created_before"] as const).filter(
    (filter) => query[filter] !== undefined,
  );
  await recordRead(
    deps,
    caller,
    {
      action: "verifications.searched",
      app_id: query.app_id,
      detail: { filters: filters.join(" ") || "none", results: String(page.data.length) },
    },
    page.data.map(({ verification_id }) => ({ verification_id, app_id: query.app_id })),
  );
  return page;
}

/** The verification as the public API shows it (without upload instructions), if one of the organisation's apps owns it. */
export async function viewMemberVerification(
  deps: Deps & { verifications: Pick<VerificationStore, "get"> },
  caller: PortalCaller,
  verificationId: string,
): Promise<ListedVerification> {
  const item = isId("verification", verificationId) ? await deps.verifications.get(verificationId) : undefined;
  if (!item) throw new VerificationNotFoundError();
  await memberApp(deps.apps, caller.member, item.app_id).catch(() => {
    throw new VerificationNotFoundError();
  });
  await recordAction(deps, caller, {
    action: "verification.viewed",
    app_id: item.app_id,
    verification_id: item.verification_id,
  });
  return toResource(item, isoSeconds(deps.clock.now()));
}
