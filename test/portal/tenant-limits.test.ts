/**
 * An organisation's limits over HTTP, on the real engines. Apps: creates through the portal API
 * stop at APPS_PER_ORGANIZATION, one after another and all at once; a refused create stores no
 * app and puts no key in the usage plan; ops cannot give a full organisation another app; an
 * organisation stored before apps were counted has its apps counted. People: invitations stop
 * at PENDING_INVITES_PER_ORGANIZATION not yet accepted, and members at MEMBERS_PER_ORGANIZATION,
 * also for invites at once; a refused invite leaves no user in the pool.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { orgPk } from "#shared/adapters/dynamodb-app-rows";
import {
  APPS_PER_ORGANIZATION,
  MEMBERS_PER_ORGANIZATION,
  PENDING_INVITES_PER_ORGANIZATION,
} from "#shared/domain/tenant-limits";
import { EXIT } from "../../ops/failures.ts";
import { opsInProcess, runtimeFileFor } from "../ops/support.ts";
import type { PortalUser } from "../support/api.ts";
import { callAs, expectProblem, type Reply } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

const fx = useApiFixture();

let dataDir: string;
beforeAll(() => {
  dataDir = runtimeFileFor(fx.api, inject("engines").dynamoEndpoint);
});

const portal = (user: PortalUser, method: string, route: string, body?: unknown): Promise<Reply> =>
  callAs(fx.api.portalUrl, user.accessToken, method, route, body);

/** What `/me` says of the organisation's apps against their limit. */
const limitsOf = async (user: PortalUser) => ({
  apps: ((await portal(user, "GET", "/portal/v1/me")).json as { limits: { apps: unknown } }).limits.apps,
});

const create = (user: PortalUser, n: number) => portal(user, "POST", "/portal/v1/apps", { name: `App ${n}` });

/** The organisation's apps as the table holds them. */
async function storedApps(organizationId: string): Promise<string[]> {
  const items = await fx.api.scan(fx.api.tables.apps);
  return items
    .filter((item) => item.kind === "app" && item.organization_id === organizationId)
    .map((item) => String(item.app_id));
}

/** What the creates answered, and that a refused one stored nothing and put no key in the usage plan. */
async function expectStoppedAtTheLimit(organizationId: string, replies: Reply[], registeredBefore: Set<string>) {
  const created = replies
    .filter((reply) => reply.status === 201)
    .map((reply) => (reply.json as { app_id: string }).app_id);
  const refused = replies.filter((reply) => reply.status !== 201);
  expect(created).toHaveLength(APPS_PER_ORGANIZATION);
  for (const reply of refused) {
    const problem = expectProblem(reply, 409, "limit_reached");
    expect(problem.detail).toContain(`already has ${APPS_PER_ORGANIZATION} apps`);
    expect(problem.limit).toEqual({ name: "apps_per_organization", max: APPS_PER_ORGANIZATION });
  }
  expect((await storedApps(organizationId)).sort()).toEqual([...created].sort());
  const registered = await fx.api.limits.registered();
  const added = [...registered].filter((appId) => !registeredBefore.has(appId));
  expect(added.sort()).toEqual([...created].sort());
}

describe("apps per organisation", () => {
  it(`lets 30 creates in a row make ${APPS_PER_ORGANIZATION} apps; the rest are 409 limit_reached`, async () => {
    const developer = await fx.api.portalUser("developer");
    const before = await fx.api.limits.registered();
    const replies: Reply[] = [];
    for (let n = 1; n <= 30; n++) replies.push(await create(developer, n));

    expect(replies.map((reply) => reply.status)).toEqual([
      ...Array<number>(APPS_PER_ORGANIZATION).fill(201),
      ...Array<number>(30 - APPS_PER_ORGANIZATION).fill(409),
    ]);
    await expectStoppedAtTheLimit(developer.organizationId, replies, before);
    expect(await limitsOf(developer)).toEqual({ apps: { used: APPS_PER_ORGANIZATION, limit: APPS_PER_ORGANIZATION } });
  });

  it(`lets 25 creates at once make exactly ${APPS_PER_ORGANIZATION} apps`, async () => {
    const developer = await fx.api.portalUser("developer");
    const before = await fx.api.limits.registered();

    const replies = await Promise.all(Array.from({ length: 25 }, (_, n) => create(developer, n + 1)));

    await expectStoppedAtTheLimit(developer.organizationId, replies, before);
  });

  it("refuses ops giving a full organisation another app, and counts an organisation stored before counting", async () => {
    const owner = await fx.api.portalUser("owner");
    // Stored as before apps were counted: five apps, and no count on the organisation.
    const earlier = await Promise.all(Array.from({ length: 5 }, () => fx.api.organizationApp(owner.organizationId)));
    await fx.api.db.send(
      new UpdateCommand({
        TableName: fx.api.tables.apps,
        Key: { pk: orgPk(owner.organizationId) },
        UpdateExpression: "REMOVE app_count",
      }),
    );
    expect(await limitsOf(owner)).toEqual({
      apps: { used: earlier.length, limit: APPS_PER_ORGANIZATION },
    });

    const replies = await Promise.all(Array.from({ length: 20 }, (_, n) => create(owner, n + 1)));
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(APPS_PER_ORGANIZATION - earlier.length);
    expect(await storedApps(owner.organizationId)).toHaveLength(APPS_PER_ORGANIZATION);

    const spare = await fx.api.newApp();
    const attach = await opsInProcess(["orgs", "attach-app", owner.organizationId, spare.app_id], dataDir);
    expect(attach.exit, attach.stderr).toBe(EXIT.refused);
    expect(attach.stderr).toContain(`already has ${APPS_PER_ORGANIZATION} apps`);
    expect((await fx.api.apps.getApp(spare.app_id))?.organization_id).toBeUndefined();
    // One it owns already, attached again, takes no place.
    const again = await opsInProcess(["orgs", "attach-app", owner.organizationId, String(earlier[0]?.app_id)], dataDir);
    expect(again.exit).toBe(EXIT.ok);
  });
});

describe("people per organisation", () => {
  const invite = (owner: PortalUser, username: string) =>
    portal(owner, "POST", "/portal/v1/users", { username, email: `${username}@example.com`, role: "viewer" });
  const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

  it(`holds ${PENDING_INVITES_PER_ORGANIZATION} invitations nobody has accepted; one accepted frees its place`, async () => {
    const owner = await fx.api.portalUser("owner");
    const invited: string[] = [];
    for (let n = 0; n < PENDING_INVITES_PER_ORGANIZATION; n++) {
      const username = unique("pending");
      const reply = await invite(owner, username);
      expect(reply.status, reply.text).toBe(201);
      invited.push(username);
    }
    const refusedName = unique("pending");
    const refused = expectProblem(await invite(owner, refusedName), 409, "limit_reached");
    expect(refused.limit).toEqual({ name: "pending_invites_per_organization", max: PENDING_INVITES_PER_ORGANIZATION });
    // Refused before the user was made: the pool has no user of that name.
    expect(fx.api.identity.invitationOf(refusedName)).toBeUndefined();

    // One invitee signs in: their invitation is accepted, and another may be sent.
    await fx.api.identity.firstPortalSignIn(invited[0] as string);
    expect((await invite(owner, unique("pending"))).status).toBe(201);
    expectProblem(await invite(owner, unique("pending")), 409, "limit_reached");
    // One invitation withdrawn (its invitee removed before signing in) frees its place too.
    expect((await portal(owner, "DELETE", `/portal/v1/users/${invited[1]}`)).status).toBe(200);
    expect((await invite(owner, unique("pending"))).status).toBe(201);
  });

  it(`holds ${PENDING_INVITES_PER_ORGANIZATION} invitations also when 16 are sent at once, mailing only those it holds`, async () => {
    const owner = await fx.api.portalUser("owner");
    const names = Array.from({ length: 16 }, () => unique("burst"));
    const replies = await Promise.all(names.map((username) => invite(owner, username)));
    const admitted = names.filter((_, n) => replies[n]?.status === 201);
    expect(admitted).toHaveLength(PENDING_INVITES_PER_ORGANIZATION);
    for (const reply of replies.filter((candidate) => candidate.status !== 201)) {
      expect(expectProblem(reply, 409, "limit_reached").limit).toEqual({
        name: "pending_invites_per_organization",
        max: PENDING_INVITES_PER_ORGANIZATION,
      });
    }
    // The place is taken before the invitee's user is made: a refused invite mailed nobody.
    const mailed = names.filter((name) => fx.api.identity.invitationOf(name) !== undefined);
    expect(mailed.sort()).toEqual([...admitted].sort());
  }, 60_000);

  it(`holds ${MEMBERS_PER_ORGANIZATION} members, also for invites sent at once, and removes the user of a refused one`, async () => {
    const owner = await fx.api.portalUser("owner");
    // Members who have signed in already: no invitation of theirs is pending.
    const present = MEMBERS_PER_ORGANIZATION - 4;
    for (let n = 1; n < present; n++) await fx.api.portalUser("viewer", owner.organizationId);
    const names = Array.from({ length: 8 }, () => unique("late"));
    const replies = await Promise.all(names.map((username) => invite(owner, username)));
    const admitted = names.filter((_, n) => replies[n]?.status === 201);
    expect(admitted).toHaveLength(MEMBERS_PER_ORGANIZATION - present);
    for (const reply of replies.filter((candidate) => candidate.status !== 201)) {
      const problem = expectProblem(reply, 409, "limit_reached");
      expect(problem.limit).toEqual({ name: "members_per_organization", max: MEMBERS_PER_ORGANIZATION });
    }
    const people = await portal(owner, "GET", "/portal/v1/users?limit=100");
    expect((people.json as { data: unknown[] }).data).toHaveLength(MEMBERS_PER_ORGANIZATION);
    // A refused invite's user does not stay in the pool: its name can be invited elsewhere.
    const refusedName = names.find((name) => !admitted.includes(name)) as string;
    const elsewhere = await fx.api.portalUser("owner");
    expect((await invite(elsewhere, refusedName)).status).toBe(201);
  }, 60_000);
});
