/**
 * Tampering with the audit trail as the roles that write it could, and what the check behind
 * `ops audit verify` names. The attacker's powers are read from the synthesized sandbox stack:
 * every action any role but the sealer's holds on the audit table, none on the digests table, no
 * use of the sealing key. The attacks run on DynamoDB Local through a client that refuses any
 * call those powers do not cover; the records and digests are the real adapters'.
 */
import {
  DeleteCommand,
  type GetCommand,
  PutCommand,
  QueryCommand,
  type ScanCommand,
  type UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { ulid } from "ulid";
import { beforeAll, describe, expect, it } from "vitest";
import { DynamoDbAuditDigests } from "#shared/adapters/dynamodb-audit-digests";
import { DynamoDbAuditTrail } from "#shared/adapters/dynamodb-audit-trail";
import { AUDIT_DIGESTS_TABLE, AUDIT_TABLE } from "#shared/declarations/tables";
import { auditPlace, auditRecord } from "#shared/domain/audit";
import { SEAL_OVERDUE_MS } from "#shared/domain/audit-digests";
import type { AuditRecord } from "#shared/domain/responses/audit";
import { isoSeconds } from "#shared/domain/time";
import { sealAudit } from "#shared/use-cases/audit/seal";
import { verifyAuditTrail } from "#shared/use-cases/audit/verify";
import cdkJson from "../../cdk.json";
import { defineApp } from "../../infra/define-app.ts";
import { inProcessSealingKey } from "../support/fakes.ts";
import { FixedClock } from "../support/fixed-clock.ts";
import { ownTables } from "../support/own-tables.ts";

type Json = Record<string, unknown>;

/** What each role of the sandbox stack may do to the audit table, the digests table and the sealing key. */
interface Powers {
  /** Every action any role but the sealer's holds on the audit table: the attacker's. */
  onRecords: Set<string>;
  /** Every action any role but the sealer's holds on the digests table. */
  onDigests: Set<string>;
  /** The principals the sealing key's policy lets sign, and the sealer's role. */
  signers: unknown[];
  sealerRole: string;
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function powersOf(template: Template): Powers {
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Json }>;
  const logicalId = (type: string, test: (properties: Json) => boolean) => {
    const found = Object.entries(resources).filter(
      ([, resource]) => resource.Type === type && test(resource.Properties),
    );
    expect(found, type).toHaveLength(1);
    return found[0]?.[0] as string;
  };
  const keyNames = (properties: Json) =>
    JSON.stringify((properties.KeySchema as Json[]).map((key) => key.AttributeName));
  const recordsTable = logicalId("AWS::DynamoDB::Table", (p) => keyNames(p) === JSON.stringify(["month", "audit_id"]));
  const digestsTable = logicalId("AWS::DynamoDB::Table", (p) => keyNames(p) === JSON.stringify(["month", "seq"]));
  const sealingKey = logicalId("AWS::KMS::Key", (p) => p.KeySpec === "ECC_NIST_P256");
  const sealer = logicalId("AWS::Lambda::Function", (p) => String(p.Description).startsWith("seal-audit "));
  const propertiesOf = (id: string): Json => {
    const resource = resources[id];
    if (!resource) throw new Error(`No resource ${id}`);
    return resource.Properties;
  };
  const sealerRole = ((propertiesOf(sealer).Role as Json)["Fn::GetAtt"] as string[])[0] as string;

  const onRecords = new Set<string>();
  const onDigests = new Set<string>();
  const grant = (roles: string[], statement: Json) => {
    if (statement.Effect !== "Allow" || roles.every((role) => role === sealerRole)) return;
    const on = JSON.stringify(statement.Resource);
    const actions = asList(statement.Action as string | string[]);
    for (const action of actions) {
      if (on.includes(`"${recordsTable}"`)) onRecords.add(action);
      if (on.includes(`"${digestsTable}"`)) onDigests.add(action);
    }
  };
  for (const resource of Object.values(resources)) {
    if (resource.Type === "AWS::IAM::Policy") {
      const roles = asList(resource.Properties.Roles as Json[]).map((role) => String(role.Ref));
      for (const statement of (resource.Properties.PolicyDocument as Json).Statement as Json[]) grant(roles, statement);
    }
    if (resource.Type === "AWS::IAM::Role") {
      for (const policy of asList(resource.Properties.Policies as Json[])) {
        for (const statement of (policy.PolicyDocument as Json).Statement as Json[]) grant(["inline"], statement);
      }
    }
  }
  const keyPolicy = propertiesOf(sealingKey).KeyPolicy as Json;
  const signers = (keyPolicy.Statement as Json[])
    .filter((statement) =>
      asList(statement.Action as string | string[]).some((action) => action === "kms:Sign" || action === "kms:*"),
    )
    .map((statement) => statement.Principal);
  return { onRecords, onDigests, signers, sealerRole };
}

/** The DynamoDB action each command of the document client calls. */
const ACTION_OF: Record<string, string> = {
  PutCommand: "dynamodb:PutItem",
  GetCommand: "dynamodb:GetItem",
  QueryCommand: "dynamodb:Query",
  ScanCommand: "dynamodb:Scan",
  UpdateCommand: "dynamodb:UpdateItem",
  DeleteCommand: "dynamodb:DeleteItem",
};

const tables = ownTables();
let powers: Powers;

beforeAll(() => {
  const app = new App({
    context: {
      ...cdkJson.context,
      env: "sandbox",
      account: "123456789012",
      region: "eu-central-1",
      "aws:cdk:bundling-stacks": [],
    },
  });
  powers = powersOf(Template.fromStack(defineApp(app, {})));
}, 120_000);

/** A client of the audit table that makes only the calls the writers' roles may make. */
function attacker() {
  const doc = tables.doc();
  return {
    async send(
      command: PutCommand | GetCommand | QueryCommand | ScanCommand | UpdateCommand | DeleteCommand,
    ): Promise<{ Items?: Json[] }> {
      const action = ACTION_OF[command.constructor.name] ?? command.constructor.name;
      const table = command.input.TableName;
      const may = table === tables.name(AUDIT_TABLE) ? powers.onRecords : powers.onDigests;
      if (!may.has(action)) throw new Error(`AccessDenied: no writer role may ${action} on ${table}`);
      return (await doc.send(command as never)) as unknown as { Items?: Json[] };
    },
  };
}

const by = { actor: { pool: "portal" as const, sub: "owner-1", username: "owner" }, requestId: "r", sourceIp: "-" };
const staff = { ...by, actor: { pool: "staff" as const, sub: "staff-1", username: "ayse" } };
/** A record made at `iso`: an owner's for `n` 1, 4 or 5, a reviewer's otherwise, each kept in their own chain. */
const recordAt = (iso: string, n: number): AuditRecord => ({
  ...auditRecord([1, 4, 5].includes(n) ? by : staff, new Date(iso), {
    action: "verification.viewed",
    detail: { n: String(n) },
  }),
  audit_id: `aud_${ulid(Date.parse(iso))}`,
});

describe("the writers' powers, as the stack grants them", () => {
  it("put records and read them, never change the digests, never sign", () => {
    expect(powers.onRecords).toContain("dynamodb:PutItem");
    for (const action of powers.onRecords) expect(action).not.toMatch(/\*|UpdateItem|DeleteItem|BatchWrite|PartiQL/);
    for (const action of powers.onDigests)
      expect(["dynamodb:Query", "dynamodb:GetItem", "dynamodb:Scan"]).toContain(action);
    expect(powers.signers).toEqual([{ AWS: { "Fn::GetAtt": [powers.sealerRole, "Arn"] } }]);
  });
});

describe("tampering, each kind named", () => {
  it("names what was edited, reordered, expired early, put in, removed and kept outside its month or chain; the sealer does not seal over it", async () => {
    const clock = new FixedClock("2026-11-20T12:00:00Z");
    const trail = new DynamoDbAuditTrail(tables.doc(), tables.name(AUDIT_TABLE));
    const digests = new DynamoDbAuditDigests(tables.doc(), tables.name(AUDIT_DIGESTS_TABLE));
    const key = inProcessSealingKey();
    const check = () => verifyAuditTrail({ prints: trail, strays: trail, digests, ...key, clock }, {});
    const seal = () => sealAudit({ prints: trail, digests, ...key, clock });

    const records = ["10:00", "10:10", "10:20", "10:30", "10:40", "10:50", "11:00"].map((time, n) =>
      recordAt(`2026-11-20T${time}:00Z`, n),
    );
    for (const record of records) await trail.append(record);
    await seal();
    expect((await check()).findings).toEqual([]);

    const intruder = attacker();
    const table = tables.name(AUDIT_TABLE);
    const stored = async (record: AuditRecord | undefined) =>
      (
        await intruder.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: "#m = :m AND audit_id = :id",
            ExpressionAttributeNames: { "#m": "month" },
            ExpressionAttributeValues: { ":m": record && auditPlace(record), ":id": record?.audit_id },
          }),
        )
      ).Items?.[0] as Json;
    const put = (item: Json) => intruder.send(new PutCommand({ TableName: table, Item: item }));
    const [first, edited, swapA, swapB, shortened, , last] = await Promise.all(records.map(stored));

    await put({ ...edited, detail: { n: "forged" } });
    // Reordered: two records' contents swapped, each keeping its own key (both a reviewer's: one chain).
    await put({ ...swapB, month: swapA?.month, audit_id: swapA?.audit_id });
    await put({ ...swapA, month: swapB?.month, audit_id: swapB?.audit_id });
    await put({ ...shortened, expires_at_epoch: 1 });
    // The month's first and last records expired early, and then removed by the table's TTL.
    await put({ ...first, expires_at_epoch: 1 });
    await put({ ...last, expires_at_epoch: 1 });
    for (const gone of [first, last]) {
      await tables
        .doc()
        .send(new DeleteCommand({ TableName: table, Key: { month: gone?.month, audit_id: gone?.audit_id } }));
    }
    const inserted = { ...(await stored(records[1])), ...recordAt("2026-11-20T10:25:00Z", 99), month: "2026-11" };
    await put(inserted);
    const pastMonth = { ...inserted, ...recordAt("2026-08-03T09:00:00Z", 98), month: "2026-08" };
    await put(pastMonth);
    const nowhere = { ...inserted, ...recordAt("2026-11-20T10:26:00Z", 97), month: "x" };
    await put(nowhere);
    const elsewhere = { ...inserted, ...recordAt("2026-11-20T10:27:00Z", 96), month: "2026-10" };
    await put(elsewhere);
    // A reviewer's record kept in the operators' chain of its month.
    const otherChain = { ...inserted, ...recordAt("2026-11-20T11:58:00Z", 95), month: "2026-11#operator" };
    await put(otherChain);
    // No writer may write a digest of its own.
    await expect(
      intruder.send(
        new PutCommand({ TableName: tables.name(AUDIT_DIGESTS_TABLE), Item: { month: "2026-11", seq: 9 } }),
      ),
    ).rejects.toThrow(/AccessDenied/);

    // The next seal finds the month open and leaves the changes as they are.
    await seal();
    const findings = (await check()).findings.map(({ kind, audit_id, reason }) => ({ kind, audit_id, reason }));
    const expected = [
      { kind: "edited", audit_id: records[1]?.audit_id, reason: expect.stringContaining("changed") },
      { kind: "edited", audit_id: records[2]?.audit_id, reason: expect.any(String) },
      { kind: "edited", audit_id: records[3]?.audit_id, reason: expect.any(String) },
      { kind: "edited", audit_id: records[4]?.audit_id, reason: expect.stringContaining("expiry") },
      { kind: "removed", audit_id: records[0]?.audit_id, reason: expect.stringContaining("first") },
      { kind: "removed", audit_id: records[6]?.audit_id, reason: expect.stringContaining("last") },
      { kind: "inserted", audit_id: inserted.audit_id, reason: expect.stringContaining("put in") },
      { kind: "inserted", audit_id: pastMonth.audit_id, reason: expect.any(String) },
      { kind: "stray", audit_id: nowhere.audit_id, reason: expect.stringContaining("outside") },
      { kind: "stray", audit_id: elsewhere.audit_id, reason: expect.any(String) },
      { kind: "stray", audit_id: otherChain.audit_id, reason: expect.any(String) },
    ];
    expect(findings).toEqual(expect.arrayContaining(expected));
    expect(findings).toHaveLength(expected.length);
    // What no listing shows: the records kept outside their month or chain.
    const listed = (await trail.page({ actorSub: "owner-1" }, 100)).records.map((record) => record.audit_id);
    expect(listed).not.toContain(nowhere.audit_id);
    expect(listed).not.toContain(elsewhere.audit_id);
    expect(listed).not.toContain(otherChain.audit_id);
  });

  it("names a month whose records no signed digest covers once they are old enough", async () => {
    // A month before the retention the test above sealed: no digest of it exists.
    const clock = new FixedClock("2024-06-10T12:00:00Z");
    const prefix = "2024-06-10T11:59";
    const trail = new DynamoDbAuditTrail(tables.doc(), tables.name(AUDIT_TABLE));
    const digests = new DynamoDbAuditDigests(tables.doc(), tables.name(AUDIT_DIGESTS_TABLE));
    const key = inProcessSealingKey();
    const unsealed = recordAt(`${prefix}:00Z`, 1);
    await trail.append(unsealed);
    const check = () =>
      verifyAuditTrail(
        { prints: trail, strays: { strays: async () => [] }, digests, ...key, clock },
        { from: "2024-06", to: "2024-06" },
      );
    expect((await check()).months).toEqual([expect.objectContaining({ month: "2024-06", pending: 1, findings: [] })]);
    clock.set(isoSeconds(new Date(Date.parse(`${prefix}:00Z`) + SEAL_OVERDUE_MS + 60_000)));
    expect((await check()).findings).toEqual([
      expect.objectContaining({ kind: "unsealed", audit_id: unsealed.audit_id }),
    ]);
  });
});
