/**
 * `ops orgs` against a test API's tables and its identity endpoint: an operator creates an
 * organisation, invites its owner and gives it an existing app; the owner signs in to the
 * portal with the temporary password, sets their own, and sees the app there.
 */
import {
  ChallengeNameType,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { staffPassword } from "#shared/domain/staff";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../local/engines.ts";
import { LOCAL_PORTAL_POOL } from "../../local/resources.ts";
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

/** The portal page's sign-in: the temporary password, then the new one the pool asks for. */
async function firstSignIn(username: string, temporaryPassword: string): Promise<string> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: api.identity.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    const first = await cognito.send(
      new InitiateAuthCommand({
        ClientId: LOCAL_PORTAL_POOL.clientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: username, PASSWORD: temporaryPassword },
      }),
    );
    expect(first.ChallengeName).toBe(ChallengeNameType.NEW_PASSWORD_REQUIRED);
    const answered = await cognito.send(
      new RespondToAuthChallengeCommand({
        ClientId: LOCAL_PORTAL_POOL.clientId,
        ChallengeName: ChallengeNameType.NEW_PASSWORD_REQUIRED,
        Session: first.Session,
        ChallengeResponses: { USERNAME: username, NEW_PASSWORD: staffPassword() },
      }),
    );
    const token = answered.AuthenticationResult?.AccessToken;
    if (!token) throw new Error("No access token after the new password");
    return token;
  } finally {
    cognito.destroy();
  }
}

describe("ops orgs", () => {
  it("creates an organisation, invites its owner, attaches an app: the owner sees it in the portal", async () => {
    const organization = json<{ organization_id: string; name: string }>(
      await ops(["orgs", "create", "Acme Üniversite", "--json"]),
    );
    expect(organization).toMatchObject({ organization_id: expect.stringMatching(/^org_/), name: "Acme Üniversite" });
    const listed = json<{ organizations: { organization_id: string }[] }>(await ops(["orgs", "list", "--json"]));
    expect(listed.organizations.map((o) => o.organization_id)).toContain(organization.organization_id);

    const invited = json<{ username: string; role: string; temporary_password: string }>(
      await ops(["orgs", "invite", organization.organization_id, "acme-owner", "--role", "owner", "--json"]),
    );
    expect(invited).toMatchObject({ username: "acme-owner", role: "owner", status: "FORCE_CHANGE_PASSWORD" });

    const app = await api.newApp();
    const attached = json<{ app_id: string }>(
      await ops(["orgs", "attach-app", organization.organization_id, app.app_id, "--json"]),
    );
    expect(attached).toEqual({ app_id: app.app_id, organization_id: organization.organization_id });

    const token = await firstSignIn("acme-owner", invited.temporary_password);
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
    const missing = await ops(["orgs", "invite", "org_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nobody", "--role", "viewer"]);
    expect(missing.exit).toBe(EXIT.notFound);
    expect(missing.stderr).toContain("No organisation org_01ARZ3NDEKTSV4RRFFQ69G5FAV");
    const badRole = await ops(["orgs", "invite", "org_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nobody", "--role", "admin"]);
    expect(badRole.exit).toBe(EXIT.usage);
    const organization = json<{ organization_id: string }>(await ops(["orgs", "create", "Beta", "--json"]));
    const noApp = await ops(["orgs", "attach-app", organization.organization_id, "app_01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    expect(noApp.exit).toBe(EXIT.notFound);
  });
});
