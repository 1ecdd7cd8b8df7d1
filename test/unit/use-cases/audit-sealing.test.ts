/**
 * The audit trail's signed digests, with the trail and digests in memory and a key pair in
 * process: the sealer seals only what has had time to land, closes every month that ended, and
 * refuses to close one that does not agree; the check names every kind of change it can meet.
 * And the chains a record is kept in, and the id just below another that pages stop at.
 */
import { ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { AUDIT_CHAINS, AUDIT_ID_PATTERN, auditChain, auditIdBelow, auditRecord } from "#shared/domain/audit";
import {
  DIGEST_RECORDS,
  DIGEST_START,
  digestHash,
  digestsToSeal,
  SEAL_MARGIN_MS,
  SEAL_OVERDUE_MS,
} from "#shared/domain/audit-digests";
import type { AuditRecord } from "#shared/domain/responses/audit";
import { sealAudit } from "#shared/use-cases/audit/seal";
import { verifyAuditTrail } from "#shared/use-cases/audit/verify";
import { InMemoryAuditDigests, InMemoryAuditTrail, inProcessSealingKey } from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const by = { actor: { pool: "staff" as const, sub: "staff-1", username: "ayse" }, requestId: "r", sourceIp: "-" };

/** A record made at `iso`, its id carrying that time as the trail's ids do. */
function recordAt(iso: string, n = 0): AuditRecord {
  const at = new Date(iso);
  return {
    ...auditRecord(by, at, { action: "verification.viewed", detail: { n: String(n) } }),
    audit_id: `aud_${ulid(at.getTime())}`,
  };
}

function world(now = "2026-11-20T12:00:00Z") {
  const trail = new InMemoryAuditTrail();
  const digests = new InMemoryAuditDigests();
  const clock = new FixedClock(now);
  const key = inProcessSealingKey();
  const seal = () => sealAudit({ prints: trail, digests, ...key, clock });
  const verify = () =>
    verifyAuditTrail({ prints: trail, strays: { strays: async () => [] }, digests, ...key, clock }, {});
  return { trail, digests, clock, key, seal, verify };
}

describe("digestsToSeal", () => {
  const month = "2026-11";
  const now = new Date("2026-11-20T12:00:00Z");
  const print = (iso: string) => ({ audit_id: `aud_${ulid(Date.parse(iso))}`, print: "p" });

  it("seals what has had time to land, and leaves the rest for the next run", () => {
    const old = print("2026-11-20T11:50:00Z");
    const young = print(new Date(now.getTime() - SEAL_MARGIN_MS + 1000).toISOString());
    const [digest, ...more] = digestsToSeal(month, undefined, [old, young], now);
    expect(more).toEqual([]);
    expect(digest).toMatchObject({ month, seq: 1, prev: DIGEST_START, records: [old], closes: false });
  });

  it("follows the last digest, splits past DIGEST_RECORDS, and writes nothing when nothing is due", () => {
    const last = digestsToSeal(month, undefined, [print("2026-11-01T00:00:00Z")], now)[0];
    if (!last) throw new Error("no digest");
    const many = Array.from({ length: DIGEST_RECORDS + 1 }, (_, n) =>
      print(new Date(Date.parse("2026-11-02T00:00:00Z") + n * 1000).toISOString()),
    );
    const next = digestsToSeal(month, last, many, now);
    expect(next.map((digest) => [digest.seq, digest.records.length])).toEqual([
      [2, DIGEST_RECORDS],
      [3, 1],
    ]);
    expect(next[0]?.prev).toBe(digestHash(last));
    expect(next[1]?.prev).toBe(digestHash(next[0] ?? last));
    expect(digestsToSeal(month, last, [], now)).toEqual([]);
  });

  it("closes a month that has ended, an empty one too, and nothing after its closing digest", () => {
    const [closing] = digestsToSeal("2026-10", undefined, [], now);
    expect(closing).toMatchObject({ month: "2026-10", seq: 1, records: [], closes: true });
    expect(digestsToSeal("2026-10", closing, [print("2026-10-31T23:00:00Z")], now)).toEqual([]);
    // The month's last minutes may still be landing: not closed before the margin has passed.
    expect(digestsToSeal("2026-11", undefined, [], new Date("2026-12-01T00:01:00Z"))).toEqual([]);
  });
});

describe("sealing and checking", () => {
  it("holds when nothing changed, counting young records as waiting", async () => {
    const { trail, seal, verify, clock } = world();
    for (const [n, at] of ["2026-11-20T11:00:00Z", "2026-11-20T11:30:00Z"].entries())
      await trail.append(recordAt(at, n));
    // The first run also closes the retention's past months, each with an empty digest.
    expect(await seal()).toMatchObject({ sealed: 2, digests: 25 });
    await trail.append(recordAt("2026-11-20T11:59:30Z", 3));
    const check = await verify();
    expect(check.findings).toEqual([]);
    expect(check.months.find((month) => month.month === "2026-11")).toMatchObject({ sealed: 2, pending: 1 });

    // Past its margin the young record is sealed by the next run, and the trail still holds.
    clock.set("2026-11-20T12:05:00Z");
    expect(await seal()).toMatchObject({ sealed: 1 });
    expect((await verify()).findings).toEqual([]);
  });

  it("closes every month that ended, and then names a record put in one", async () => {
    const { trail, seal, verify, digests } = world("2026-12-01T00:05:00Z");
    await trail.append(recordAt("2026-11-30T23:00:00Z"));
    const outcome = await seal();
    expect(outcome.closed).toContain("2026-11");
    expect(outcome.closed).toContain("2026-10");
    expect((await digests.last("2026-10"))?.digest).toMatchObject({ records: [], closes: true });

    const forged = recordAt("2026-10-15T09:00:00Z");
    await trail.append(forged);
    expect((await verify()).findings).toEqual([
      expect.objectContaining({ kind: "inserted", month: "2026-10", audit_id: forged.audit_id }),
    ]);
  });

  it("names each record changed, put in, or gone, and the first and last by their place", async () => {
    const { trail, seal, verify } = world();
    const records = ["10:00", "10:10", "10:20", "10:30", "10:40"].map((time, n) =>
      recordAt(`2026-11-20T${time}:00Z`, n),
    );
    for (const record of records) await trail.append(record);
    await seal();

    const edited = trail.kept[2] as AuditRecord;
    edited.detail = { n: "forged" };
    const inserted = recordAt("2026-11-20T10:15:00Z", 99);
    await trail.append(inserted);
    trail.kept.splice(4, 1);
    trail.kept.splice(0, 1);

    const findings = (await verify()).findings.map(({ kind, audit_id, reason }) => ({ kind, audit_id, reason }));
    expect(findings).toEqual(
      expect.arrayContaining([
        { kind: "edited", audit_id: records[2]?.audit_id, reason: expect.stringContaining("changed") },
        { kind: "inserted", audit_id: inserted.audit_id, reason: expect.stringContaining("put in") },
        { kind: "removed", audit_id: records[0]?.audit_id, reason: expect.stringContaining("first") },
        { kind: "removed", audit_id: records[4]?.audit_id, reason: expect.stringContaining("last") },
      ]),
    );
    expect(findings).toHaveLength(4);
  });

  it("names a digest the sealing key did not sign", async () => {
    const { trail, seal, verify, digests } = world();
    await trail.append(recordAt("2026-11-20T10:00:00Z"));
    await seal();
    const kept = digests.kept.find(({ digest }) => digest.month === "2026-11");
    if (!kept) throw new Error("no digest");
    // Someone able to write the digests table rewrites a digest without the key.
    kept.digest.records = [];
    expect((await verify()).findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "forged_digest", digest: kept.digest.seq })]),
    );
  });

  it("names the records of a month sealing never reached, once they are older than sealing allows", async () => {
    const { trail, verify, clock } = world("2026-11-20T10:05:00Z");
    const unsealed = recordAt("2026-11-20T10:00:00Z");
    await trail.append(unsealed);
    expect((await verify()).findings).toEqual([]);
    clock.set(new Date(Date.parse("2026-11-20T10:00:00Z") + SEAL_OVERDUE_MS + 1000).toISOString());
    expect((await verify()).findings).toEqual([
      expect.objectContaining({ kind: "unsealed", audit_id: unsealed.audit_id }),
    ]);
  });

  it("leaves a month that does not agree open, reporting why, instead of sealing over it", async () => {
    const { trail, seal, clock, digests } = world("2026-11-30T12:00:00Z");
    const record = recordAt("2026-11-30T10:00:00Z");
    await trail.append(record);
    await seal();
    (trail.kept[0] as AuditRecord).detail = { n: "forged" };
    clock.set("2026-12-01T00:05:00Z");
    const outcome = await seal();
    expect(outcome.closed).not.toContain("2026-11");
    expect(outcome.findings).toEqual([expect.objectContaining({ kind: "edited", audit_id: record.audit_id })]);
    expect((await digests.last("2026-11"))?.digest.closes).toBe(false);
  });

  it("writes a place once when two sealers run at the same moment", async () => {
    const { trail, digests, clock, key } = world();
    await trail.append(recordAt("2026-11-20T10:00:00Z"));
    const run = () => sealAudit({ prints: trail, digests, ...key, clock });
    await Promise.all([run(), run()]);
    expect((await digests.digests("2026-11")).map(({ digest }) => digest.seq)).toEqual([1]);
  });
});

describe("the trail's chains", () => {
  const portal = (organizationId: string) => ({
    actor: { pool: "portal" as const, sub: `owner-of-${organizationId}`, username: "owner" },
    organization_id: organizationId,
  });

  it("keeps staff and operators apart, and each organisation's records in one share whoever acts", () => {
    expect(auditChain({ actor: by.actor })).toBe("staff");
    expect(auditChain({ actor: { pool: "operator", sub: "os-user", username: "os-user" } })).toBe("operator");
    const chain = auditChain(portal("org_01JQ"));
    expect(auditChain({ ...portal("org_01JQ"), actor: { pool: "portal", sub: "other", username: "x" } })).toBe(chain);
    const shares = new Set(Array.from({ length: 200 }, (_, n) => auditChain(portal(`org_${n}`))));
    expect([...shares].sort()).toEqual(AUDIT_CHAINS.filter((name) => name.startsWith("portal-")).sort());
  });

  it("names the id just below another, so a key condition can stand for 'older than'", () => {
    expect(auditIdBelow("aud_01JQ000000000000000000000B")).toBe("aud_01JQ000000000000000000000A");
    expect(auditIdBelow("aud_01JQ0000000000000000000010")).toBe("aud_01JQ000000000000000000000Z");
    expect(auditIdBelow("aud_01JQ0000000000000000000J00")).toBe("aud_01JQ0000000000000000000HZZ");
    expect(auditIdBelow("aud_00000000000000000000000000")).toBeUndefined();
    for (let n = 0; n < 200; n += 1) {
      const id = `aud_${ulid(Date.parse("2026-11-20T10:00:00Z") + n)}`;
      const below = auditIdBelow(id) ?? "";
      expect(below < id && AUDIT_ID_PATTERN.test(below)).toBe(true);
    }
  });
});
