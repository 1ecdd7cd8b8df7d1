/**
 * `ops audit verify` against a test API's audit table: the operator's own changes leave records
 * that name them, the chain holds, and a record changed in the table afterwards (as someone with
 * write access to it could) is named by the next check.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LOCAL_REGION } from "../../local/engines.ts";
import { EXIT } from "../../ops/failures.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { OPERATOR_ARN, type OpsRun, opsInProcess, runtimeFileFor, startCallerIdentity } from "./support.ts";

let api: TestApi;
let dataDir: string;

beforeAll(async () => {
  api = await startApi();
  dataDir = runtimeFileFor(api, inject("engines").dynamoEndpoint);
});
afterAll(() => api.stop());

const ops = (args: string[]) => opsInProcess(args, dataDir);

function json<T>(run: OpsRun, exit: number = EXIT.ok): T {
  expect(run, run.stderr).toMatchObject({ exit, stderr: "" });
  return JSON.parse(run.stdout) as T;
}

interface Stored {
  audit_id: string;
  action: string;
  actor: { pool: string; sub: string };
  organization_id?: string;
  detail?: Record<string, string>;
}

describe("ops audit verify", () => {
  it("finds the operator's records whole, then names the one changed in the table", async () => {
    const organization = json<{ organization_id: string }>(await ops(["orgs", "create", "Denetim A.Ş.", "--json"]));
    json(
      await ops([
        "orgs",
        "invite",
        organization.organization_id,
        "denetim-owner",
        "--role",
        "owner",
        "--email",
        "denetim@example.com.tr",
        "--json",
      ]),
    );

    const records = (await api.scan(api.tables.audit)).filter((item) => !String(item.month).startsWith("chain#"));
    const mine = (records as unknown as Stored[]).filter(
      (record) => record.organization_id === organization.organization_id,
    );
    expect(mine.map((record) => record.action).sort()).toEqual(["organization.created", "user.invited"]);
    for (const record of mine) expect(record.actor.pool).toBe("operator");

    const whole = json<{ ok: boolean; months: { records: number }[] }>(await ops(["audit", "verify", "--json"]));
    expect(whole.ok).toBe(true);
    expect(whole.months.reduce((sum, month) => sum + month.records, 0)).toBe(records.length);

    // Someone with write access to the table changes what the record says, keeping its link.
    const forged = records.find((item) => item.audit_id === mine[0]?.audit_id) as Record<string, unknown>;
    const db = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: inject("engines").dynamoEndpoint,
        region: LOCAL_REGION,
        credentials: inject("engines").credentials,
      }),
    );
    try {
      await db.send(
        new PutCommand({ TableName: api.tables.audit, Item: { ...forged, detail: { name: "Başka A.Ş." } } }),
      );
    } finally {
      db.destroy();
    }

    const broken = json<{ ok: boolean; broken: { audit_id: string; reason: string } }>(
      await ops(["audit", "verify", "--json"]),
      EXIT.failed,
    );
    expect(broken.ok).toBe(false);
    expect(broken.broken).toMatchObject({ audit_id: forged.audit_id, reason: expect.stringContaining("changed") });
    const text = await ops(["audit", "verify"]);
    expect(text.exit).toBe(EXIT.failed);
    expect(text.stdout).toContain(String(forged.audit_id));
  });

  it("names the IAM principal that ran a command against a deployed stack", async () => {
    const callerIdentity = await startCallerIdentity();
    // The standard per-service endpoint settings, aimed at STS's stand-in and DynamoDB Local.
    process.env.AWS_ENDPOINT_URL_STS = callerIdentity.url;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = inject("engines").dynamoEndpoint;
    try {
      const deployed = ["--env", "sandbox", "--region", LOCAL_REGION, "--apps-table", api.tables.apps];
      const organization = json<{ organization_id: string }>(
        await ops([...deployed, "--audit-table", api.tables.audit, "orgs", "create", "Uzak A.Ş.", "--json"]),
      );
      const records = (await api.scan(api.tables.audit)) as unknown as Stored[];
      const created = records.find((record) => record.organization_id === organization.organization_id);
      expect(created?.actor).toEqual({ pool: "operator", sub: OPERATOR_ARN, username: "ayse" });
    } finally {
      delete process.env.AWS_ENDPOINT_URL_STS;
      delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      await callerIdentity.stop();
    }
  });
});
