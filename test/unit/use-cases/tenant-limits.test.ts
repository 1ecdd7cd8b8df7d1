/**
 * What one organisation may hold: apps made in the portal and apps given to it by ops stop at
 * APPS_PER_ORGANIZATION, and a refused one leaves nothing: no app, no key, no request bucket,
 * no audit record.
 */
import { describe, expect, it } from "vitest";
import type { AppItem } from "#shared/domain/apps";
import { newId } from "#shared/domain/ids";
import type { OrganizationItem, PortalCaller } from "#shared/domain/organizations";
import type { AuditRecord } from "#shared/domain/responses/audit";
import { APPS_PER_ORGANIZATION, SENDING_LIMITS } from "#shared/domain/tenant-limits";
import { PROBLEMS } from "#shared/http/problems";
import type { OrganizationStore } from "#shared/ports/organization-store";
import { attachApp } from "#shared/use-cases/accounts/organizations";
import { createMemberApp } from "#shared/use-cases/portal/apps";
import { whoAmI } from "#shared/use-cases/portal/me";
import { anApp, appId, InMemoryAppLimits, InMemoryAppStore, TaggingSealer } from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const ORGANIZATION = newId("organization");

/** The organisation and which apps it owns, over the apps of `apps`, as the table keeps them. */
class Organizations implements Pick<OrganizationStore, "getOrganization" | "appsOwned" | "attachApp"> {
  constructor(private readonly apps: InMemoryAppStore) {}

  private owned(organizationId: string): AppItem[] {
    return [...this.apps.apps.values()].filter((app) => app.organization_id === organizationId);
  }

  async getOrganization(organizationId: string): Promise<OrganizationItem | undefined> {
    if (organizationId !== ORGANIZATION) return undefined;
    return {
      kind: "organization",
      organization_id: ORGANIZATION,
      name: "Acme",
      environment: "sandbox",
      created_at: "2026-11-01T00:00:00Z",
    };
  }

  async appsOwned(organizationId: string): Promise<number> {
    return this.owned(organizationId).length;
  }

  async attachApp(
    id: string,
    organizationId: string,
    now: string,
    audit: AuditRecord | undefined,
    appsPerOrganization: number,
  ): Promise<"attached" | "taken" | "full"> {
    const app = this.apps.apps.get(id);
    if (!app || (app.organization_id !== undefined && app.organization_id !== organizationId)) return "taken";
    if (app.organization_id === undefined && this.owned(organizationId).length >= appsPerOrganization) return "full";
    await this.apps.trail.keep(audit);
    this.apps.apps.set(id, { ...app, organization_id: organizationId, updated_at: now });
    return "attached";
  }
}

function setup() {
  const apps = new InMemoryAppStore();
  const limits = new InMemoryAppLimits();
  const clock = new FixedClock(T0);
  const deps = {
    apps,
    sealer: new TaggingSealer(),
    limits,
    clock,
    environment: "sandbox" as const,
    destinations: "public" as const,
    organizations: new Organizations(apps),
  };
  const caller: PortalCaller = {
    member: { sub: "sub-dev", username: "deniz", organizationId: ORGANIZATION, role: "developer" },
    audit: {
      actor: { pool: "portal", sub: "sub-dev", username: "deniz" },
      requestId: "req-1",
      sourceIp: "198.51.100.7",
      organizationId: ORGANIZATION,
    },
  };
  return { apps, limits, deps, caller };
}

describe("apps per organisation", () => {
  it("is 20, refused as a 409 like a third live key", () => {
    expect(APPS_PER_ORGANIZATION).toBe(20);
    expect(PROBLEMS.limit_reached.status).toBe(PROBLEMS.too_many_live_keys.status);
  });

  it("lets a member create the organisation's 20th app and refuses the 21st, storing nothing of it", async () => {
    const { apps, limits, deps, caller } = setup();
    for (let n = 1; n <= APPS_PER_ORGANIZATION; n++) await createMemberApp(deps, caller, { name: `App ${n}` });
    const before = { apps: apps.apps.size, keys: apps.keys.size, records: apps.trail.records.length };

    const refused = await createMemberApp(deps, caller, { name: "One too many" }).catch((error: unknown) => error);

    expect(refused).toMatchObject({
      code: "limit_reached",
      limit: { name: "apps_per_organization", max: APPS_PER_ORGANIZATION },
      message: expect.stringContaining(`already has ${APPS_PER_ORGANIZATION} apps`),
    });
    expect({ apps: apps.apps.size, keys: apps.keys.size, records: apps.trail.records.length }).toEqual(before);
    // No request bucket either: the usage plan's keys are the 20 stored apps'.
    expect(limits.registrations).toHaveLength(APPS_PER_ORGANIZATION);
    expect(new Set(limits.registrations)).toEqual(new Set(apps.apps.keys()));
  });

  it("shows the member how many apps the organisation has of its limit", async () => {
    const { deps, caller } = setup();
    for (let n = 1; n <= 3; n++) await createMemberApp(deps, caller, { name: `App ${n}` });

    expect((await whoAmI(deps, caller.member)).limits).toEqual({
      apps: { used: 3, limit: APPS_PER_ORGANIZATION },
      // The sends by hand each app may make, as declared.
      sending: {
        test: { most: SENDING_LIMITS.test.most, per_seconds: SENDING_LIMITS.test.perSeconds },
        manual: { most: SENDING_LIMITS.manual.most, per_seconds: SENDING_LIMITS.manual.perSeconds },
      },
    });
  });

  it("refuses ops attaching a 21st app, and attaching one it owns again takes no place", async () => {
    const { apps, deps, caller } = setup();
    for (let n = 1; n < APPS_PER_ORGANIZATION; n++) await createMemberApp(deps, caller, { name: `App ${n}` });
    apps.put(anApp({ app_id: appId(1) }));
    apps.put(anApp({ app_id: appId(2) }));

    await attachApp(deps, { organizationId: ORGANIZATION, appId: appId(1) });
    await attachApp(deps, { organizationId: ORGANIZATION, appId: appId(1) });
    const refused = attachApp(deps, { organizationId: ORGANIZATION, appId: appId(2) });

    await expect(refused).rejects.toMatchObject({ code: "limit_reached" });
    expect(apps.app(appId(2)).organization_id).toBeUndefined();
    await expect(createMemberApp(deps, caller, { name: "Late" })).rejects.toMatchObject({ code: "limit_reached" });
  });
});
