/**
 * The verifications table on DynamoDB Local. The store keeps what only the table needs (the
 * sparse keys of its indexes, the record's expiry) beside each verification and never hands it
 * back; the review queue's pages and counts keep what their filter asks for; a guard (`guards.ts`) it compiles into a write's condition holds exactly when
 * `guardHolds` says it does; the expiry reads every shard of a day, a few at once.
 */
import { randomUUID } from "node:crypto";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { DynamoDbAuditTrail } from "#shared/adapters/dynamodb-audit-trail";
import { DynamoDbRequestLog } from "#shared/adapters/dynamodb-request-log";
import { DynamoDbVerificationStore, EXPIRY_CONCURRENCY } from "#shared/adapters/dynamodb-verification-store";
import { AUDIT_TABLE, USAGE_TABLE, VERIFICATIONS_TABLE } from "#shared/declarations/tables";
import { auditRecord } from "#shared/domain/audit";
import type { DocumentType } from "#shared/domain/document-types";
import { guardHolds, type TransitionGuard } from "#shared/domain/guards";
import { newId } from "#shared/domain/ids";
import { answered, claimed, rechecked } from "#shared/domain/issuer";
import type { ReviewReason } from "#shared/domain/reasons";
import type { RequestRecord } from "#shared/domain/requests";
import { PARTITION_SHARDS, shardedKey } from "#shared/domain/shards";
import type { VerificationItem } from "#shared/domain/verification";
import { appId, aVerification } from "../support/fakes.ts";
import { ownTables } from "../support/own-tables.ts";

const tables = ownTables();
const table = tables.name(VERIFICATIONS_TABLE);
let store: DynamoDbVerificationStore;

beforeAll(() => {
  store = new DynamoDbVerificationStore(tables.doc(), table);
});

/** The record as the table holds it. */
async function storedRecord(id: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await tables.doc().send(new GetCommand({ TableName: table, Key: { verification_id: id } }));
  return Item;
}

/** A new verification of its own, awaiting its upload. */
async function created(fields: Partial<VerificationItem> = {}): Promise<VerificationItem> {
  const item = aVerification({ verification_id: newId("verification"), ...fields });
  await store.create(item, 365);
  return item;
}

describe("what only the table needs", () => {
  it("files a new verification under its deadline's day and shard, its reference and its expiry, and reads back only the verification", async () => {
    const item = await created({ external_reference_id: "student-4711", upload_deadline: "2026-11-23T12:00:00Z" });

    expect(await storedRecord(item.verification_id)).toEqual({
      ...item,
      awaiting_day: shardedKey("2026-11-23", item.verification_id),
      app_reference: `${appId(1)}#student-4711`,
      // Kept 365 days from creation, then the table's TTL deletes it.
      expires_at_epoch: Date.parse(item.created_at) / 1000 + 365 * 86_400,
    });
    expect(await store.get(item.verification_id)).toEqual(item);
  });

  it("takes a verification out of the expiry index when it leaves awaiting_upload, and files it by its review deadline's day while in review", async () => {
    const item = await created();
    const id = item.verification_id;
    const now = "2026-11-22T12:00:00Z";

    await store.transition({ id, from: "awaiting_upload", to: "processing", now });
    expect(await storedRecord(id)).not.toHaveProperty("awaiting_day");

    const deadline = "2026-11-25T12:00:00Z";
    const review = await store.transition({
      id,
      from: "processing",
      to: "in_review",
      now,
      set: { review_reason: "issuer_unavailable", review_required_at: now, review_deadline: deadline },
    });
    expect(review).toMatchObject({ applied: true, item: { status: "in_review", sequence: 3 } });
    expect(review.item).not.toHaveProperty("review_day");
    expect(await storedRecord(id)).toMatchObject({ review_day: "2026-11-25" });
    expect((await store.inReviewOn("2026-11-25", {}, 100)).items.map((found) => found.verification_id)).toContain(id);

    await store.transition({
      id,
      from: "in_review",
      to: "completed",
      now,
      set: { result: "verified", completed_at: now },
    });
    expect(await storedRecord(id)).not.toHaveProperty("review_day");
    expect((await store.inReviewOn("2026-11-25", {}, 100)).items.map((found) => found.verification_id)).not.toContain(
      id,
    );
  });

  it("forgets the reference when the verification is erased: the by-reference lookup no longer finds it", async () => {
    const reference = `erased-${randomUUID()}`;
    const item = await created({ external_reference_id: reference, status: "completed", sequence: 3 });
    const query = { appId: appId(1), reference, now: "2026-11-22T12:00:00Z" };
    expect((await store.listForApp(query, 10)).items.map((found) => found.verification_id)).toEqual([
      item.verification_id,
    ]);

    await store.erase({ id: item.verification_id, sequence: 3, now: "2026-11-22T12:00:00Z", expire: false });

    expect((await store.listForApp(query, 10)).items).toEqual([]);
    expect(await storedRecord(item.verification_id)).not.toHaveProperty("app_reference");
  });
});

describe("inReviewOn and countInReviewOn", () => {
  /** A verification of `type` waiting in review for `reason`, its window closing at `deadline`. */
  async function waiting(type: DocumentType, reason: ReviewReason, deadline: string): Promise<string> {
    const id = (await created({ document_type: type })).verification_id;
    const now = "2026-12-04T12:00:00Z";
    await store.transition({ id, from: "awaiting_upload", to: "processing", now });
    await store.transition({
      id,
      from: "processing",
      to: "in_review",
      now,
      set: { review_reason: reason, review_required_at: now, review_deadline: deadline },
    });
    return id;
  }

  it("pages a day's verifications in review by type and reason, earliest deadline first, and counts what matches", async () => {
    const day = "2026-12-07";
    const ids = [
      await waiting("YOK_STUDENT", "issuer_unavailable", `${day}T08:00:00Z`),
      await waiting("GSB_KYK_DORM", "fields_incomplete", `${day}T09:00:00Z`),
      await waiting("YOK_STUDENT", "original_pdf_not_provided", `${day}T10:00:00Z`),
      await waiting("GSB_KYK_DORM", "issuer_unavailable", `${day}T11:00:00Z`),
      await waiting("GSB_KYK_DORM", "issuer_unavailable", `${day}T12:00:00Z`),
    ];
    const idsOf = (page: { items: VerificationItem[] }) => page.items.map((item) => item.verification_id);

    const first = await store.inReviewOn(day, { documentType: "GSB_KYK_DORM" }, 2);
    expect(idsOf(first)).toEqual([ids[1], ids[3]]);
    expect(first.more).toBe(true);
    const last = first.items.at(-1) as VerificationItem;
    const rest = await store.inReviewOn(day, { documentType: "GSB_KYK_DORM" }, 2, {
      deadline: last.review_deadline ?? "",
      id: last.verification_id,
    });
    expect(idsOf(rest)).toEqual([ids[4]]);
    expect(rest.more).toBe(false);
    const both = await store.inReviewOn(day, { documentType: "GSB_KYK_DORM", reason: "issuer_unavailable" }, 1);
    expect(idsOf(both)).toEqual([ids[3]]);
    expect(both.more).toBe(true);
    expect(idsOf(await store.inReviewOn(day, { reason: "original_pdf_not_provided" }, 5))).toEqual([ids[2]]);
    expect(idsOf(await store.inReviewOn(day, {}, 5))).toEqual(ids);

    expect(await store.countInReviewOn(day, {})).toBe(5);
    expect(await store.countInReviewOn(day, { documentType: "YOK_STUDENT" })).toBe(2);
    expect(await store.countInReviewOn(day, { reason: "issuer_unavailable" })).toBe(3);
    expect(await store.countInReviewOn(day, { documentType: "YOK_STUDENT", reason: "fields_incomplete" })).toBe(0);
    expect(await store.countInReviewOn("2026-12-08", {})).toBe(0);
  });
});

describe("erasedSince", () => {
  it("files an erasure under its day and shard, and finds those erased from since to now, across midnight", async () => {
    const erasedAt = async (now: string) => {
      const item = await created({ status: "completed", sequence: 3 });
      await store.erase({ id: item.verification_id, sequence: 3, now, expire: false });
      return item.verification_id;
    };
    await erasedAt("2026-12-31T23:40:00Z");
    const lateInTheDay = await erasedAt("2026-12-31T23:58:00Z");
    const afterMidnight = await erasedAt("2027-01-01T00:03:00Z");
    await erasedAt("2027-01-01T00:30:00Z");
    expect(await storedRecord(afterMidnight)).toMatchObject({ erased_day: shardedKey("2027-01-01", afterMidnight) });

    const visited: VerificationItem[] = [];
    await store.erasedSince("2026-12-31T23:45:00Z", "2027-01-01T00:10:00Z", async (item) => {
      visited.push(item);
    });

    expect(visited.map((item) => item.verification_id).sort()).toEqual([lateInTheDay, afterMidnight].sort());
    for (const item of visited) expect(item).not.toHaveProperty("erased_day");
  });
});

describe("guards: the write holds exactly when guardHolds says", () => {
  const NOW = "2026-11-22T12:00:00Z";
  const upload = { appId: appId(1), size: 1024, documentTypes: ["YOK_STUDENT"] as const };
  const claimed = { claimed_by_sub: "sub-a", claimed_by: "ayse", claim_expires_at: "2026-11-22T12:05:00Z" };
  const cases: [string, Partial<VerificationItem>, TransitionGuard][] = [
    ["no guard", {}, {}],
    ["the sequence seen", {}, { sequence: 1 }],
    ["another sequence", {}, { sequence: 2 }],
    ["the confirm's rule, met", {}, { upload }],
    ["another app's", { app_id: appId(2) }, { upload }],
    ["its deadline now", { upload_deadline: NOW }, { upload }],
    ["another size", { file_size_bytes: 2048 }, { upload }],
    ["a type the upload does not suit", {}, { upload: { ...upload, documentTypes: [] } }],
    ["a deadline passed", { upload_deadline: "2026-11-22T11:00:00Z" }, { deadlinePassedBy: NOW }],
    ["a deadline still ahead", { upload_deadline: "2026-11-22T12:00:01Z" }, { deadlinePassedBy: NOW }],
    ["the claim held", claimed, { claimHeldBy: "sub-a" }],
    ["the claim someone else's", claimed, { claimHeldBy: "sub-b" }],
    ["the claim lapsed", { ...claimed, claim_expires_at: NOW }, { claimHeldBy: "sub-a" }],
    ["no claim", {}, { claimHeldBy: "sub-a" }],
    ["two parts, one failing", {}, { sequence: 1, upload: { ...upload, size: 1 } }],
  ];

  it.each(cases)("%s", async (_what, fields, guard) => {
    const status = guard.claimHeldBy === undefined ? "awaiting_upload" : "in_review";
    const item = await created({ ...fields, status });
    const to = status === "in_review" ? "completed" : "processing";

    const outcome = await store.transition({ id: item.verification_id, from: status, to, now: NOW, expect: guard });

    expect(outcome.applied).toBe(guardHolds(item, guard, NOW));
    expect(outcome.item).toMatchObject({ status: outcome.applied ? to : status });
  });

  it("covers both answers: the cases above hold and fail", () => {
    const answers = new Set(cases.map(([, fields, guard]) => guardHolds(aVerification(fields), guard, NOW)));
    expect(answers).toEqual(new Set([true, false]));
  });
});

describe("awaitingPastDeadline", () => {
  it("visits every shard of each day, and the day alone as written before sharding, a few partitions at once", async () => {
    const day = "2026-10-30";
    // Four ids in each shard.
    const ids: string[] = [];
    const perShard = new Map<string, number>();
    while (ids.length < 4 * PARTITION_SHARDS) {
      const id = newId("verification");
      const shard = shardedKey(day, id);
      if ((perShard.get(shard) ?? 0) === 4) continue;
      perShard.set(shard, (perShard.get(shard) ?? 0) + 1);
      ids.push(id);
    }
    const many = await Promise.all(
      ids.map((id) => created({ verification_id: id, upload_deadline: `${day}T09:00:00Z` })),
    );
    expect(new Set(many.map((item) => shardedKey(day, item.verification_id))).size).toBe(PARTITION_SHARDS);
    const older = aVerification({ verification_id: newId("verification"), upload_deadline: `${day}T08:00:00Z` });
    await tables.doc().send(new PutCommand({ TableName: table, Item: { ...older, awaiting_day: day } }));
    const ahead = await created({ upload_deadline: `${day}T12:00:01Z` });

    const visited: string[] = [];
    let reading = 0;
    let most = 0;
    await store.awaitingPastDeadline(day, `${day}T12:00:00Z`, async (item) => {
      reading += 1;
      most = Math.max(most, reading);
      await new Promise((resolve) => setTimeout(resolve, 5));
      visited.push(item.verification_id);
      reading -= 1;
    });

    expect(visited.sort()).toEqual([...many, older].map((item) => item.verification_id).sort());
    expect(visited).not.toContain(ahead.verification_id);
    expect(most).toBe(EXPIRY_CONCURRENCY);
  });
});

describe("recordIssuer", () => {
  it("removes a submitted identity number in the write that records the final answer, and only then", async () => {
    const item = await created({
      status: "processing",
      sequence: 2,
      submitted_keys: { barcode: "TESTYOK-0001-AKTIF", identity_number_sealed: "kms1.sealed" },
    });
    const held = claimed(undefined, 1, new Date("2026-11-22T12:00:00Z"), 900);
    const taken = await store.recordIssuer({ id: item.verification_id, sequence: 2, seen: undefined, state: held });
    expect(taken.item?.submitted_keys).toEqual(item.submitted_keys);

    const recorded = await store.recordIssuer({
      id: item.verification_id,
      sequence: 2,
      seen: held,
      state: answered(held, "found"),
      forgetSubmittedNumber: true,
    });

    expect(recorded).toMatchObject({ applied: true, item: { issuer: { answer: "found" } } });
    expect(recorded.item?.submitted_keys).toEqual({ barcode: "TESTYOK-0001-AKTIF" });
    expect((await storedRecord(item.verification_id))?.submitted_keys).toEqual({ barcode: "TESTYOK-0001-AKTIF" });
  });
});

describe("asking the issuer again from review", () => {
  const now = "2026-11-22T12:00:00Z";
  const ayse = {
    actor: { pool: "staff" as const, sub: "ayse", username: "ayse" },
    requestId: "req-1",
    sourceIp: "192.0.2.1",
  };
  let audited: DynamoDbVerificationStore;
  beforeAll(() => {
    audited = new DynamoDbVerificationStore(
      tables.doc(),
      table,
      new DynamoDbAuditTrail(tables.doc(), tables.name(AUDIT_TABLE)),
    );
  });

  /** Processed to review because the issuer gave no answer (`reason`), then claimed by `ayse` until 12:15. */
  async function unanswered(reason: ReviewReason = "issuer_unavailable") {
    const state = { ...claimed(undefined, 1, new Date(now), 0), rev: 2, answer: "unavailable" as const };
    const item = await created({ status: "processing", sequence: 2, issuer: state });
    const id = item.verification_id;
    const set = { review_reason: reason, review_required_at: now, review_deadline: "2026-11-25T12:00:00Z" };
    await store.transition({ id, from: "processing", to: "in_review", now, set });
    const claim = await store.claimReview({
      id,
      holder: { sub: "ayse", username: "ayse" },
      now,
      expiresAt: "2026-11-22T12:15:00Z",
    });
    expect(claim).toMatchObject({ applied: true, item: { sequence: 3 } });
    return { id, state };
  }

  it("records the asking only for the claim's holder, over the state they read, of an item the issuer gave no answer for", async () => {
    const { id, state: seen } = await unanswered();
    const ask = (fields: { holder?: string; rev?: number; id?: string }) =>
      audited.askIssuerAgain({
        id: fields.id ?? id,
        sequence: 3,
        holder: fields.holder ?? "ayse",
        now,
        seen: { ...seen, rev: fields.rev ?? seen.rev },
        state: rechecked(seen, new Date(now), "ayse"),
        audit: auditRecord(ayse, new Date(now), { action: "review.issuer_asked", verification_id: id }),
      });

    expect((await ask({ holder: "mehmet" })).applied).toBe(false);
    expect((await ask({ rev: seen.rev + 1 })).applied).toBe(false);
    const other = await unanswered("fields_incomplete");
    expect((await ask({ id: other.id })).applied).toBe(false);
    const asked = await ask({});
    expect(asked).toMatchObject({ applied: true, item: { sequence: 3, issuer: { recheck: { at: now, by: "ayse" } } } });
    // Over what it read: the same asking again finds another state.
    expect((await ask({})).applied).toBe(false);
  });

  it("revises an item in review one step up its sequence, still filed by its review deadline", async () => {
    const { id } = await unanswered();
    const revised = await store.revise({
      id,
      sequence: 3,
      now: "2026-11-22T12:05:00Z",
      set: { review_reason: "fields_incomplete" },
      remove: ["expected_subject"],
    });
    expect(revised).toMatchObject({
      applied: true,
      item: {
        status: "in_review",
        sequence: 4,
        review_reason: "fields_incomplete",
        updated_at: "2026-11-22T12:05:00Z",
      },
    });
    expect(await storedRecord(id)).toMatchObject({ review_day: "2026-11-25" });
    expect((await store.inReviewOn("2026-11-25", {}, 100)).items.map((found) => found.verification_id)).toContain(id);
    expect((await store.revise({ id, sequence: 3, now, set: {} })).applied).toBe(false);
  });
});

describe("a change that carries its API request's record", () => {
  const requestRecord = (verificationId: string, status: number): RequestRecord => ({
    request_id: randomUUID(),
    app_id: appId(1),
    method: "POST",
    path: "/v1/verifications",
    status,
    verification_id: verificationId,
    at: "2026-11-22T12:00:00Z",
  });

  /** A store whose changes keep their requests' records in the request log, and the commands it sends. */
  function carrying() {
    const shared = tables.doc();
    const sent: string[] = [];
    const send = shared.send.bind(shared);
    // The shared client, with each command it is given counted (a request each, retries aside).
    const doc: typeof shared = Object.create(shared);
    doc.send = ((command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      return send(command as Parameters<typeof send>[0]);
    }) as typeof doc.send;
    const requests = new DynamoDbRequestLog(tables.doc(), tables.name(USAGE_TABLE));
    return { sent, requests, store: new DynamoDbVerificationStore(doc, table, undefined, requests) };
  }

  it("creates the verification and keeps the request in one request to the table", async () => {
    const { sent, requests, store: keeping } = carrying();
    const item = aVerification({ verification_id: newId("verification") });
    const record = requestRecord(item.verification_id, 201);

    await keeping.create(item, 365, record);

    expect(sent).toEqual(["TransactWriteCommand"]);
    expect(await store.get(item.verification_id)).toEqual(item);
    expect(await requests.find(record.request_id)).toEqual(record);
  });

  it("changes state and keeps the request in one request, answering the item it wrote without reading it back", async () => {
    const { sent, requests, store: keeping } = carrying();
    const seen = await created();
    const record = requestRecord(seen.verification_id, 200);

    const outcome = await keeping.transition({
      id: seen.verification_id,
      from: "awaiting_upload",
      to: "processing",
      now: "2026-11-22T12:00:05Z",
      seen,
      logged: record,
    });

    expect(sent).toEqual(["TransactWriteCommand"]);
    expect(outcome).toEqual({ applied: true, item: await store.get(seen.verification_id) });
    expect(outcome.item).toMatchObject({ status: "processing", sequence: 2, updated_at: "2026-11-22T12:00:05Z" });
    expect(await requests.find(record.request_id)).toEqual(record);
  });

  it("keeps nothing when the change is refused: the item it saw has changed since", async () => {
    const { requests, store: keeping } = carrying();
    const seen = await created();
    await store.erase({ id: seen.verification_id, sequence: 1, now: "2026-11-22T12:00:01Z", expire: true });
    const record = requestRecord(seen.verification_id, 200);

    const outcome = await keeping.transition({
      id: seen.verification_id,
      from: "awaiting_upload",
      to: "processing",
      now: "2026-11-22T12:00:05Z",
      seen,
      logged: record,
    });

    expect(outcome).toMatchObject({ applied: false, item: { status: "expired", sequence: 2 } });
    expect(await requests.find(record.request_id)).toBeUndefined();
  });
});
