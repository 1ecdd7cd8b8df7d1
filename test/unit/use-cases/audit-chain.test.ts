import { describe, expect, it } from "vitest";
import { auditRecord, brokenLink, CHAIN_START, type ChainedRecord, nextLink } from "#shared/domain/audit";
import { verifyAuditChain } from "#shared/use-cases/audit/verify";
import { InMemoryAuditTrail } from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const by = { actor: { pool: "operator" as const, sub: "ops-1", username: "ops" }, requestId: "r", sourceIp: "-" };

/** `count` records of this month, chained as the trail chains them. */
async function chainOf(count: number): Promise<{ trail: InMemoryAuditTrail; month: string }> {
  const trail = new InMemoryAuditTrail();
  for (let n = 0; n < count; n += 1) {
    await trail.append(auditRecord(by, new Date(), { action: "app.created", detail: { n: String(n) } }));
  }
  return { trail, month: new Date().toISOString().slice(0, 7) };
}

describe("the audit trail's chain", () => {
  it("starts each month at CHAIN_START and links every record to the one before", async () => {
    const { trail, month } = await chainOf(3);
    const links = (await trail.chained(month)).map(({ link }) => link);
    expect(links.map((link) => link.seq)).toEqual([1, 2, 3]);
    expect(links[0]?.prev).toBe(CHAIN_START);
    expect(links[1]?.prev).toBe(links[0]?.hash);
    expect(links[2]?.prev).toBe(links[1]?.hash);
    expect(brokenLink(await trail.chained(month), await trail.head(month))).toBeUndefined();
  });

  it("names a record whose content was changed after it was written", async () => {
    const { trail, month } = await chainOf(3);
    const records = await trail.chained(month);
    const changed = records[1] as ChainedRecord;
    changed.record = { ...changed.record, detail: { n: "forged" } };
    expect(brokenLink(records, await trail.head(month))).toMatchObject({
      audit_id: changed.record.audit_id,
      seq: 2,
      reason: expect.stringContaining("changed"),
    });
  });

  it("names a record put over another, rehashed to look whole", async () => {
    const { trail, month } = await chainOf(3);
    const records = await trail.chained(month);
    const second = records[1] as ChainedRecord;
    const forged = { ...second.record, detail: { n: "forged" } };
    // Rehashed in its place after the first: its own hash holds, but the third was chained to the original.
    records[1] = { record: forged, link: nextLink(forged, records[0]?.link) };
    expect(brokenLink(records, await trail.head(month))).toMatchObject({
      audit_id: forged.audit_id,
      seq: 2,
      reason: expect.stringContaining("put over"),
    });
  });

  it("names the gap a deleted record leaves, and a chain cut short of its head", async () => {
    const { trail, month } = await chainOf(4);
    const records = await trail.chained(month);
    const head = await trail.head(month);
    expect(brokenLink([records[0], records[2], records[3]] as ChainedRecord[], head)).toMatchObject({
      seq: 3,
      reason: expect.stringContaining("missing"),
    });
    expect(brokenLink(records.slice(0, 3), head)).toMatchObject({
      seq: 3,
      reason: expect.stringContaining("head names place 4"),
    });
  });
});

describe("verifyAuditChain", () => {
  it("reads every month with records and says the trail holds", async () => {
    const { trail, month } = await chainOf(2);
    const check = await verifyAuditChain({ audit: trail, clock: new FixedClock(`${month}-15T00:00:00Z`) }, {});
    expect(check).toEqual({ months: [{ month, records: 2 }] });
  });

  it("stops at the first broken month and names the record", async () => {
    const { trail, month } = await chainOf(2);
    const first = trail.kept[0] as ChainedRecord;
    first.record = { ...first.record, action: "app.disabled" };
    const check = await verifyAuditChain({ audit: trail, clock: new FixedClock(`${month}-15T00:00:00Z`) }, {});
    expect(check.broken).toMatchObject({ month, audit_id: first.record.audit_id, seq: 1 });
  });

  it("names a record written beside the chain, with no link", async () => {
    const { trail, month } = await chainOf(1);
    const record = auditRecord(by, new Date(), { action: "app.created" });
    trail.kept.push({ record, link: { seq: undefined, prev: "", hash: "" } as unknown as ChainedRecord["link"] });
    const check = await verifyAuditChain({ audit: trail, clock: new FixedClock(`${month}-15T00:00:00Z`) }, {});
    expect(check.broken).toMatchObject({
      month,
      audit_id: record.audit_id,
      reason: expect.stringContaining("no link"),
    });
  });
});
