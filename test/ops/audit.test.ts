/**
 * `ops audit verify` against a test API's audit table: the operator's own changes leave records
 * that name them, wait for the sealer, then hold against its signed digests, and a record changed
 * in the table afterwards (as someone with write access to it could) is named by the next check.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { KMSClient } from "@aws-sdk/client-kms";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SEAL_MARGIN_MS } from "#shared/domain/audit-digests";
import { isoSeconds } from "#shared/domain/time";
import { sealAudit } from "#shared/use-cases/audit/seal";
import { auditIn, sealingIn } from "#shared/wiring/stores/audit";
import { LOCAL_REGION } from "../../local/engines.ts";
import { EXIT } from "../../ops/failures.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { FixedClock } from "../support/fixed-clock.ts";
import { OPERATOR_ARN, type OpsRun, opsInProcess, runtimeFileFor, startCallerIdentity } from "./support.ts";

let api: TestApi;
let dataDir: string;

beforeAll(async () => {
  api = await startApi();
  dataDir = runtimeFileFor(api, inject("engines").dynamoEndpoint);
});
afterAll(() => api.stop());

const ops = (args: string[]) => opsInProcess(args, dataDir);
const local = (endpoint: string) => ({ endpoint, region: LOCAL_REGION, credentials: inject("engines").credentials });

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

    const records = await api.scan(api.tables.audit);
    const mine = (records as unknown as Stored[]).filter(
      (record) => record.organization_id === organization.organization_id,
    );
    expect(mine.map((record) => record.action).sort()).toEqual(["organization.created", "user.invited"]);
    for (const record of mine) expect(record.actor.pool).toBe("operator");

    // Not sealed yet: the records wait for the sealer, and nothing is wrong.
    const young = json<{ ok: boolean; months: { pending: number }[] }>(await ops(["audit", "verify", "--json"]));
    expect(young.ok).toBe(true);
    expect(young.months.reduce((sum, month) => sum + month.pending, 0)).toBe(records.length);

    // The deployed sealer, as its schedule runs it: too young to seal, the records wait; every
    // month of the retention before this one is closed by a signed digest.
    const now = new Date();
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    // In a month's first minutes the month before may still be landing records: closed by the next run.
    const closable = now.getTime() - SEAL_MARGIN_MS >= monthStart;
    expect(await api.handlers["seal-audit"]()).toMatchObject({
      sealed: 0,
      digests: closable ? 24 : 23,
      closed: closable ? expect.arrayContaining([previous.toISOString().slice(0, 7)]) : expect.any(Array),
      findings: 0,
    });

    // Sealed as the sealer does once they can have landed, with the runtime's sealing key.
    const dynamo = new DynamoDBClient(local(inject("engines").dynamoEndpoint));
    const kms = new KMSClient(local(String(process.env.KMS_ENDPOINT)));
    try {
      const later = new FixedClock(isoSeconds(new Date(Date.now() + SEAL_MARGIN_MS + 1000)));
      const sealing = sealingIn(dynamo, kms, api.tables.auditDigests, String(process.env.AUDIT_SEALING_KEY_ID));
      expect(await sealAudit({ prints: auditIn(dynamo, api.tables.audit), ...sealing, clock: later })).toMatchObject({
        sealed: records.length,
      });
    } finally {
      kms.destroy();
    }
    const whole = json<{ ok: boolean; months: { sealed: number }[] }>(await ops(["audit", "verify", "--json"]));
    expect(whole.ok).toBe(true);
    expect(whole.months.reduce((sum, month) => sum + month.sealed, 0)).toBe(records.length);

    // Someone with write access to the table changes what the record says.
    const forged = records.find((item) => item.audit_id === mine[0]?.audit_id) as Record<string, unknown>;
    try {
      await DynamoDBDocumentClient.from(dynamo).send(
        new PutCommand({ TableName: api.tables.audit, Item: { ...forged, detail: { name: "Başka A.Ş." } } }),
      );
    } finally {
      dynamo.destroy();
    }

    const broken = json<{ ok: boolean; findings: { kind: string; audit_id: string; reason: string }[] }>(
      await ops(["audit", "verify", "--json"]),
      EXIT.failed,
    );
    expect(broken.ok).toBe(false);
    expect(broken.findings).toEqual([
      expect.objectContaining({
        kind: "edited",
        audit_id: forged.audit_id,
        reason: expect.stringContaining("changed"),
      }),
    ]);
    const text = await ops(["audit", "verify"]);
    expect(text.exit).toBe(EXIT.failed);
    expect(text.stdout).toContain(String(forged.audit_id));
    expect(text.stdout).toContain("edited");
  });

  it("makes no change from a machine whose clock is minutes off AWS's, whose records would land behind a seal", async () => {
    const callerIdentity = await startCallerIdentity({ clockOffsetMs: 5 * 60_000 });
    process.env.AWS_ENDPOINT_URL_STS = callerIdentity.url;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = inject("engines").dynamoEndpoint;
    try {
      const deployed = ["--env", "sandbox", "--region", LOCAL_REGION, "--apps-table", api.tables.apps];
      const before = (await api.scan(api.tables.audit)).length;
      const run = await ops([...deployed, "--audit-table", api.tables.audit, "orgs", "create", "Saat A.Ş."]);
      expect(run.exit).not.toBe(EXIT.ok);
      // AWS's clock is read from a Date header, in whole seconds: 5 minutes measure 299 or 300 s.
      expect(run.stderr).toMatch(/\b(?:299|300) s behind AWS's/);
      expect((await api.scan(api.tables.audit)).length).toBe(before);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_STS;
      delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      await callerIdentity.stop();
    }
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
