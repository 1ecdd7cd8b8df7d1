/**
 * `ops orgs` against a test API's tables and its identity endpoint: an operator creates an
 * organisation, invites its owner (the pool mails them a temporary password) and gives it an
 * existing app; the owner signs in to the portal with the mailed password, sets their own, and
 * sees the app there. Then members change role, are disabled or removed, never leaving the
 * organisation without an owner.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EXIT } from "../../ops/failures.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { call } from "../support/client.ts";
import { type OpsRun, opsInProcess, runtimeFileFor } from "./support.ts";

let api: TestApi;
let dataDir: string;

beforeAll(async () => {
  api = await startApi();
  dataDir = runtimeFileFor(api, inject("engines").dynamoEndpoint);
});
afterAll(() => api.stop());

const ops = (args: string[]) => opsInProcess(args, dataDir);

function json<T>(run: OpsRun): T {
  expect(run, run.stderr).toMatchObject({ exit: EXIT.ok, stderr: "" });
  return JSON.parse(run.stdout) as T;
}

describe("ops orgs", () => {
  it("creates an organisation, invites its owner, attaches an app: the owner sees it in the portal", async () => {
    const organization = json<{ organization_id: string; name: string }>(
      await ops(["orgs", "create", "Acme Üniversite", "--json"]),
    );
    expect(organization).toMatchObject({ organization_id: expect.stringMatching(/^org_/), name: "Acme Üniversite" });
    const listed = json<{ organizations: { organization_id: string }[] }>(await ops(["orgs", "list", "--json"]));
    expect(listed.organizations.map((o) => o.organization_id)).toContain(organization.organization_id);

    const invite = await ops([
      "orgs",
      "invite",
      organization.organization_id,
      "acme-owner",
      "--role",
      "owner",
      "--email",
      "owner@acme.example.com.tr",
      "--json",
    ]);
    const invited = json<Record<string, string>>(invite);
    expect(invited).toEqual({
      organization_id: organization.organization_id,
      username: "acme-owner",
      role: "owner",
      status: "FORCE_CHANGE_PASSWORD",
    });
    // The temporary password went to the invitee's mailbox, not to the operator's screen.
    const invitation = api.identity.invitationOf("acme-owner");
    expect(invitation?.to).toBe("owner@acme.example.com.tr");
    expect(invite.stdout).not.toContain(invitation?.temporaryPassword);

    const app = await api.newApp();
    const attached = json<{ app_id: string }>(
      await ops(["orgs", "attach-app", organization.organization_id, app.app_id, "--json"]),
    );
    expect(attached).toEqual({ app_id: app.app_id, organization_id: organization.organization_id });

    const token = await api.identity.firstPortalSignIn("acme-owner");
    const me = await call(api.portalUrl, "GET", "/portal/v1/me", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.json).toMatchObject({ role: "owner", organization_id: organization.organization_id });
    const apps = await call(api.portalUrl, "GET", "/portal/v1/apps", { headers: { Authorization: `Bearer ${token}` } });
    expect((apps.json as { data: { app_id: string }[] }).data.map((a) => a.app_id)).toEqual([app.app_id]);

    // An app belongs to one organisation: another cannot take it.
    const other = json<{ organization_id: string }>(await ops(["orgs", "create", "Other", "--json"]));
    const refused = await ops(["orgs", "attach-app", other.organization_id, app.app_id]);
    expect(refused.exit).toBe(EXIT.refused);
    expect(refused.stderr).toContain("belongs to another organisation");
  });

  it("says which organisation or app does not exist, and refuses a role that is not one", async () => {
    const email = ["--email", "nobody@example.com"];
    const missing = await ops([
      "orgs",
      "invite",
      "org_01ARZ3NDEKTSV4RRFFQ69G5FAV",
      "nobody",
      "--role",
      "viewer",
      ...email,
    ]);
    expect(missing.exit).toBe(EXIT.notFound);
    expect(missing.stderr).toContain("No organisation org_01ARZ3NDEKTSV4RRFFQ69G5FAV");
    const badRole = await ops([
      "orgs",
      "invite",
      "org_01ARZ3NDEKTSV4RRFFQ69G5FAV",
      "nobody",
      "--role",
      "admin",
      ...email,
    ]);
    expect(badRole.exit).toBe(EXIT.usage);
    const organization = json<{ organization_id: string }>(await ops(["orgs", "create", "Beta", "--json"]));
    const noApp = await ops(["orgs", "attach-app", organization.organization_id, "app_01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    expect(noApp.exit).toBe(EXIT.notFound);
  });

  it("changes roles, disables and removes members, never leaving the organisation without an owner, each recorded", async () => {
    const organization = json<{ organization_id: string }>(await ops(["orgs", "create", "Gamma", "--json"]));
    const org = organization.organization_id;
    const invite = (username: string, role: string) =>
      ops(["orgs", "invite", org, username, "--role", role, "--email", `${username}@example.com`, "--json"]);
    json(await invite("gamma-first", "owner"));
    json(await invite("gamma-second", "developer"));

    // The only owner can be neither demoted nor removed.
    const demoted = await ops(["orgs", "set-role", org, "gamma-first", "--role", "viewer", "--json"]);
    expect(demoted.exit).toBe(EXIT.refused);
    expect(JSON.parse(demoted.stderr)).toMatchObject({ error: { code: "last_owner" } });
    expect((await ops(["orgs", "remove-member", org, "gamma-first", "--json"])).exit).toBe(EXIT.refused);

    // With a second owner, the first may go.
    expect(json(await ops(["orgs", "set-role", org, "gamma-second", "--role", "owner", "--json"]))).toMatchObject({
      username: "gamma-second",
      role: "owner",
    });
    const token = await api.identity.firstPortalSignIn("gamma-first");
    expect(json(await ops(["orgs", "remove-member", org, "gamma-first", "--json"]))).toMatchObject({
      username: "gamma-first",
      role: "owner",
      removed: true,
    });
    // Their user is gone: the token they had no longer speaks for anyone, and the name is free again.
    const me = await call(api.portalUrl, "GET", "/portal/v1/me", { headers: { Authorization: `Bearer ${token}` } });
    expect([401, 403]).toContain(me.status);
    json(await invite("gamma-first", "viewer"));

    expect(json(await ops(["orgs", "disable-member", org, "gamma-first", "--json"]))).toMatchObject({
      username: "gamma-first",
      enabled: false,
    });
    const unknown = await ops(["orgs", "remove-member", org, "gamma-nobody"]);
    expect(unknown.exit).toBe(EXIT.notFound);

    const actions = (await api.scan(api.tables.audit))
      .filter((record) => record.organization_id === org)
      .sort((a, b) => String(a.audit_id).localeCompare(String(b.audit_id)))
      .map((record) => String(record.action));
    expect(actions).toEqual([
      "organization.created",
      "user.invited",
      "user.invited",
      "member.role_changed",
      "member.removed",
      "user.invited",
      "member.disabled",
    ]);
  });
});
