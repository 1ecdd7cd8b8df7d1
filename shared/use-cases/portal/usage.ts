/** Verifications per day by outcome, for one app or every app of the organisation, from the counters. */
import type { AppItem } from "../../domain/apps.ts";
import { ValidationError } from "../../domain/errors.ts";
import type { Member } from "../../domain/organizations.ts";
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from "../../domain/portal.ts";
import type { UsageRow } from "../../domain/responses/portal.ts";
import { addSeconds, isoSeconds } from "../../domain/time.ts";
import { USAGE_OUTCOMES } from "../../domain/usage.ts";
import type { AppStore } from "../../ports/app-store.ts";
import type { Clock } from "../../ports/clock.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import type { UsageStore } from "../../ports/usage-store.ts";
import { memberApp } from "./member-app.ts";

/** How many apps one usage request reads at most (an organisation has a handful). */
const MAX_APPS = 100;

export async function readUsage(
  deps: {
    apps: Pick<AppStore, "getApp">;
    organizations: Pick<OrganizationStore, "appsOf">;
    usage: Pick<UsageStore, "read">;
    clock: Clock;
  },
  member: Member,
  query: { from?: string; to?: string; app_id?: string },
): Promise<{ data: UsageRow[]; next_cursor: null }> {
  const to = query.to ?? isoSeconds(deps.clock.now()).slice(0, 10);
  const from = query.from ?? isoSeconds(addSeconds(new Date(to), -(DEFAULT_USAGE_DAYS - 1) * 86400)).slice(0, 10);
  const days = (Date.parse(to) - Date.parse(from)) / 86400_000;
  if (days < 0 || days >= MAX_USAGE_DAYS) {
    throw new ValidationError([
      {
        field: "to",
        code: "out_of_range",
        message: `to must be from the day of from to ${MAX_USAGE_DAYS - 1} days after it`,
      },
    ]);
  }
  const apps: AppItem[] =
    query.app_id === undefined
      ? (await deps.organizations.appsOf(member.organizationId, MAX_APPS)).apps
      : [await memberApp(deps.apps, member, query.app_id)];
  const perApp = await Promise.all(apps.map((app) => deps.usage.read(app.app_id, from, to)));
  const data = perApp.flat().map(({ appId, day, counts }) => {
    const row = Object.fromEntries(USAGE_OUTCOMES.map((outcome) => [outcome, counts[outcome] ?? 0])) as Record<
      (typeof USAGE_OUTCOMES)[number],
      number
    >;
    return { day, app_id: appId, ...row, total: USAGE_OUTCOMES.reduce((sum, outcome) => sum + row[outcome], 0) };
  });
  data.sort((a, b) => a.day.localeCompare(b.day) || a.app_id.localeCompare(b.app_id));
  return { data, next_cursor: null };
}
