import { describe, expect, it } from "vitest";
import { PORTAL_ROUTES } from "#shared/declarations/portal-api";
import type { AppItem } from "#shared/domain/apps";
import type { MemberItem, PortalRole } from "#shared/domain/organizations";
import { usageOutcome } from "#shared/domain/usage";
import { authorizeMember } from "#shared/use-cases/portal/authorize-member";
import { memberApp } from "#shared/use-cases/portal/member-app";
import { anApp, appId, InMemoryAppStore } from "../../support/fakes.ts";

const ORG = "org_01KAAAAAAAAAAAAAAAAAAAAAAA";
const OTHER = "org_01KBBBBBBBBBBBBBBBBBBBBBBB";

const tokens = {
  verify: async (token: string) =>
    token === "a.b.c" ? { pool: "portal" as const, sub: "sub-1", username: "ayse", groups: [] } : undefined,
};

function organizations(role?: PortalRole) {
  const membership: MemberItem | undefined = role
    ? { kind: "member", sub: "sub-1", username: "ayse", member_org_id: ORG, role, created_at: "" }
    : undefined;
  return { getMember: async (sub: string) => (sub === "sub-1" ? membership : undefined) };
}

const routeNames = (routes: readonly { method: string; path: string }[]) =>
  routes.map((route) => `${route.method} ${route.path}`);

describe("authorizeMember", () => {
  const guarded = PORTAL_ROUTES.filter((route) => "groups" in route);

  it("gives a viewer every read and nothing else, a developer every change but people, an owner all", async () => {
    const allowed = async (role: PortalRole) => {
      const decision = await authorizeMember({ tokens, organizations: organizations(role) }, "Bearer a.b.c", guarded);
      if (decision.outcome !== "allow") throw new Error("refused");
      expect(decision.member).toEqual({ sub: "sub-1", username: "ayse", organizationId: ORG, role });
      return routeNames(decision.routes);
    };
    const people = (route: (typeof guarded)[number]) => route.path.startsWith("/portal/v1/users");
    const reads = guarded.filter((route) => route.method === "GET" && !people(route));
    expect(await allowed("viewer")).toEqual(routeNames(reads));
    expect(await allowed("developer")).toEqual(routeNames(guarded.filter((route) => !people(route))));
    expect(await allowed("owner")).toEqual(routeNames(guarded));
  });

  it("allows nothing to a user of no organisation, and refuses what is not a live bearer token", async () => {
    expect(await authorizeMember({ tokens, organizations: organizations() }, "Bearer a.b.c", guarded)).toEqual({
      outcome: "allow",
      sub: "sub-1",
      member: undefined,
      routes: [],
    });
    for (const header of [undefined, "", "a.b.c", "Bearer x.y.z"]) {
      expect(await authorizeMember({ tokens, organizations: organizations("owner") }, header, guarded)).toEqual({
        outcome: "unauthorized",
      });
    }
  });
});

describe("memberApp", () => {
  const member = { sub: "s", username: "u", organizationId: ORG, role: "viewer" as const };
  const owned: AppItem = { ...anApp(), organization_id: ORG };
  const foreign: AppItem = { ...anApp({ app_id: appId(2) }), organization_id: OTHER };
  const unowned: AppItem = anApp({ app_id: appId(3) });
  const apps = new InMemoryAppStore().put(owned).put(foreign).put(unowned);

  it("finds the organisation's own app, and reads any other (another's, nobody's, malformed) as not found", async () => {
    expect((await memberApp(apps, member, owned.app_id)).app_id).toBe(owned.app_id);
    for (const id of [foreign.app_id, unowned.app_id, appId(9), "app_../../x", "x".repeat(5000)]) {
      await expect(memberApp(apps, member, id)).rejects.toMatchObject({ code: "app_not_found" });
    }
  });
});

describe("usageOutcome", () => {
  it("counts the final states only: a completed one by its result, failed and expired as themselves", () => {
    expect(usageOutcome({ status: "completed", result: "inconclusive" })).toBe("inconclusive");
    expect(usageOutcome({ status: "failed" })).toBe("failed");
    expect(usageOutcome({ status: "expired" })).toBe("expired");
    for (const status of ["awaiting_upload", "processing", "in_review"] as const) {
      expect(usageOutcome({ status })).toBeUndefined();
    }
  });
});
