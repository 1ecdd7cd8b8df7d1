/**
 * The backoffice API over HTTP, on the real engines and the local identity endpoint: who may
 * call what, the queue and its filters, the claim as a lease, the decision's preconditions, the document links, and the
 * audit trail every staff action leaves.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { appPk } from "#shared/adapters/dynamodb-app-rows";
import type { ReviewEntry, ReviewPage } from "#shared/domain/responses/review";
import type { VerificationResource } from "#shared/domain/responses/verification";
import type { StaffUser } from "../support/api.ts";
import {
  Customer,
  call,
  expectProblem,
  expectVerification,
  processedDocument,
  type Reply,
  upload,
} from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

// No issuer: every readable certificate waits in review (`issuer_unavailable`).
const fx = useApiFixture({ pipeline: true, issuer: false, receiver: true });
const DOCUMENTS = path.resolve(__dirname, "../../docs/test-documents");
const certificate = new Uint8Array(readFileSync(path.join(DOCUMENTS, "yok-active.pdf")));

let reviewer: StaffUser;
let otherReviewer: StaffUser;
let admin: StaffUser;

beforeAll(async () => {
  [reviewer, otherReviewer, admin] = await Promise.all([
    fx.api.staffUser(["reviewers"]),
    fx.api.staffUser(["reviewers"]),
    fx.api.staffUser(["admins"]),
  ]);
});

function staff(
  user: StaffUser | string,
  method: string,
  route: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const token = typeof user === "string" ? user : user.accessToken;
  return call(fx.api.backofficeUrl, method, route, {
    headers: {
      Authorization: `Bearer ${token}`,
      ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** A verification of the fixture's app, waiting in review. */
async function inReview(): Promise<VerificationResource> {
  const created = await fx.customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
  expect((await upload(created, certificate)).status).toBe(200);
  const confirmed = expectVerification(await fx.customer.confirm(created.verification_id));
  expect(confirmed).toMatchObject({ status: "in_review", reason_code: "issuer_unavailable" });
  return confirmed;
}

const reviews = (id: string) => `/backoffice/v1/reviews/${id}`;
const verification = (id: string) => `/backoffice/v1/verifications/${id}`;
const rejection = { result: "rejected", reason_code: "not_genuine", note: "Seal differs from the issuer's template" };

describe("credentials: no surface accepts another's", () => {
  it("refuses a request with no token, an API key, an id token or a malformed token (401)", async () => {
    expectProblem(await call(fx.api.backofficeUrl, "GET", "/backoffice/v1/reviews"), 401, "invalid_token");
    const withKey = await call(fx.api.backofficeUrl, "GET", "/backoffice/v1/reviews", {
      headers: { "X-API-Key": fx.app.api_key },
    });
    expectProblem(withKey, 401, "invalid_token");
    expectProblem(await staff(fx.app.api_key, "GET", "/backoffice/v1/reviews"), 401, "invalid_token");
    expectProblem(await staff(reviewer.idToken, "GET", "/backoffice/v1/reviews"), 401, "invalid_token");
    expectProblem(await staff(`${reviewer.accessToken}x`, "GET", "/backoffice/v1/reviews"), 401, "invalid_token");
    const basic = await call(fx.api.backofficeUrl, "GET", "/backoffice/v1/reviews", {
      headers: { Authorization: `Basic ${reviewer.accessToken}` },
    });
    expectProblem(basic, 401, "invalid_token");
  });

  it("refuses a staff token on the public API (401)", async () => {
    const id = (await inReview()).verification_id;
    const asBearer = await call(fx.api.baseUrl, "GET", `/v1/verifications/${id}`, {
      headers: { Authorization: `Bearer ${admin.accessToken}` },
    });
    expectProblem(asBearer, 401, "invalid_api_key");
    const asKey = await call(fx.api.baseUrl, "GET", `/v1/verifications/${id}`, {
      headers: { "X-API-Key": admin.accessToken },
    });
    expectProblem(asKey, 401, "invalid_api_key");
  });

  it("lets a user in no group call nothing, and a reviewer not read the audit trail (403)", async () => {
    const nobody = await fx.api.staffUser([]);
    expectProblem(await staff(nobody, "GET", "/backoffice/v1/reviews"), 403, "forbidden");
    expectProblem(await staff(reviewer, "GET", "/backoffice/v1/audit"), 403, "forbidden");
    expect((await staff(admin, "GET", "/backoffice/v1/audit")).status).toBe(200);
    expect((await staff(admin, "GET", "/backoffice/v1/reviews")).status).toBe(200);
  });
});

describe("the queue", () => {
  it("lists what waits oldest first, with who holds each claim, every item once across pages", async () => {
    const waiting = [await inReview(), await inReview(), await inReview()];
    await staff(reviewer, "POST", `${reviews(waiting[1]?.verification_id ?? "")}/claim`);
    const seen: { verification_id: string; claim: unknown; waiting_since: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const reply = await staff(reviewer, "GET", `/backoffice/v1/reviews${query}`);
      expect(reply.status, reply.text).toBe(200);
      const page = reply.json as { data: typeof seen; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    const ids = seen.map((entry) => entry.verification_id);
    expect(new Set(ids).size).toBe(ids.length);
    const ours = new Map(
      seen
        .filter((entry) => waiting.some((item) => item.verification_id === entry.verification_id))
        .map((entry) => [entry.verification_id, entry]),
    );
    expect([...ours.keys()].sort()).toEqual(waiting.map((item) => item.verification_id).sort());
    // Oldest first, to the second the index keeps.
    const sinceOrder = seen.map((entry) => entry.waiting_since);
    expect(sinceOrder).toEqual([...sinceOrder].sort());
    expect(ours.get(waiting[1]?.verification_id ?? "")?.claim).toMatchObject({ claimed_by: reviewer.username });
    expect(ours.get(waiting[0]?.verification_id ?? "")?.claim).toBeNull();
  });

  it("refuses a cursor it did not hand out and a limit out of range", async () => {
    expectProblem(
      await staff(reviewer, "GET", "/backoffice/v1/reviews?cursor=bm90LWEtY3Vyc29y"),
      400,
      "invalid_cursor",
    );
    expectProblem(await staff(reviewer, "GET", "/backoffice/v1/reviews?limit=101"), 422, "validation_failed");
    expectProblem(await staff(reviewer, "GET", "/backoffice/v1/reviews?limit=0"), 422, "validation_failed");
  });

  it("narrows to a document type and a reason, counts every match in total, and names each app", async () => {
    const photo = await processedDocument(fx.customer, "yok-photo.png", "YOK_STUDENT", {
      status: "in_review",
      reason_code: "original_pdf_not_provided",
    });
    const dorm = await processedDocument(fx.customer, "gsb-accommodated.pdf", "GSB_KYK_DORM", {
      status: "in_review",
      reason_code: "issuer_unavailable",
    });
    const certificateInReview = await inReview();
    // Another app's, then the app removed: its entry names it by its id.
    const gone = await fx.api.newApp();
    const orphan = await processedDocument(
      new Customer(fx.api.baseUrl, gone.api_key),
      "gsb-photo.jpg",
      "GSB_KYK_DORM",
      {
        status: "in_review",
        reason_code: "original_pdf_not_provided",
      },
    );
    await fx.api.db.send(new DeleteCommand({ TableName: fx.api.tables.apps, Key: { pk: appPk(gone.app_id) } }));
    const appName = (await fx.api.apps.getApp(fx.app.app_id))?.name ?? "";
    expect(appName).not.toBe("");

    const everything = await wholeQueue("");
    expect(everything.totals).toEqual([everything.entries.length]);
    const byId = new Map(everything.entries.map((entry) => [entry.verification_id, entry]));
    for (const mine of [photo, dorm, certificateInReview]) {
      expect(byId.get(mine.verification_id), mine.verification_id).toMatchObject({
        app_id: fx.app.app_id,
        app_name: appName,
      });
    }
    expect(byId.get(orphan.verification_id)).toMatchObject({ app_id: gone.app_id, app_name: gone.app_id });

    for (const [query, ids] of [
      ["document_type=GSB_KYK_DORM", [dorm, orphan]],
      ["reason_code=original_pdf_not_provided", [photo, orphan]],
      ["document_type=YOK_STUDENT&reason_code=original_pdf_not_provided", [photo]],
    ] as const) {
      const asked = new URLSearchParams(query);
      const [type, reason] = [asked.get("document_type"), asked.get("reason_code")];
      const matching = everything.entries.filter(
        (entry) => (!type || entry.document_type === type) && (!reason || entry.reason_code === reason),
      );
      const narrowed = await wholeQueue(query);
      // Every page answers the same total: what matches on all of them.
      expect(narrowed.totals, query).toEqual([matching.length]);
      expect(
        narrowed.entries.map((entry) => entry.verification_id),
        query,
      ).toEqual(matching.map((entry) => entry.verification_id));
      for (const item of ids)
        expect(narrowed.entries.map((entry) => entry.verification_id)).toContain(item.verification_id);
    }
  });

  it("refuses a filter it does not know (422) and a cursor asked with other filters (400)", async () => {
    await processedDocument(fx.customer, "gsb-accommodated.pdf", "GSB_KYK_DORM", {
      status: "in_review",
      reason_code: "issuer_unavailable",
    });
    await processedDocument(fx.customer, "gsb-accommodated.pdf", "GSB_KYK_DORM", {
      status: "in_review",
      reason_code: "issuer_unavailable",
    });
    for (const query of ["document_type=PASSPORT", "reason_code=verified", "reason_code=", "type=YOK_STUDENT"]) {
      const problem = expectProblem(
        await staff(reviewer, "GET", `/backoffice/v1/reviews?${query}`),
        422,
        "validation_failed",
      );
      expect(problem.errors?.[0]?.field, query).toBe(query.split("=")[0]);
    }
    const first = await staff(reviewer, "GET", "/backoffice/v1/reviews?document_type=GSB_KYK_DORM&limit=1");
    const cursor = encodeURIComponent((first.json as { next_cursor: string | null }).next_cursor ?? "");
    expect(cursor).not.toBe("");
    for (const other of [
      "",
      "&document_type=YOK_STUDENT",
      "&document_type=GSB_KYK_DORM&reason_code=issuer_unavailable",
    ]) {
      expectProblem(
        await staff(reviewer, "GET", `/backoffice/v1/reviews?cursor=${cursor}${other}`),
        400,
        "invalid_cursor",
      );
    }
    const next = await staff(
      reviewer,
      "GET",
      `/backoffice/v1/reviews?cursor=${cursor}&document_type=GSB_KYK_DORM&limit=1`,
    );
    expect(next.status, next.text).toBe(200);
  });
});

/** Every page of the queue with `query`: the entries in order, and the total each page answered. */
async function wholeQueue(query: string) {
  const entries: ReviewEntry[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const paging: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const reply = await staff(reviewer, "GET", `/backoffice/v1/reviews?limit=2&${query}${paging}`);
    expect(reply.status, reply.text).toBe(200);
    const page = reply.json as ReviewPage;
    entries.push(...page.data);
    totals.push(page.total);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return { entries, totals: [...new Set(totals)] };
}

describe("the claim", () => {
  it("goes to exactly one of two reviewers claiming at once; the holder renews it", async () => {
    const id = (await inReview()).verification_id;
    const replies = await Promise.all([
      staff(reviewer, "POST", `${reviews(id)}/claim`),
      staff(otherReviewer, "POST", `${reviews(id)}/claim`),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const won = replies.find((reply) => reply.status === 200) as Reply;
    const lost = replies.find((reply) => reply.status === 409) as Reply;
    const claim = won.json as { claimed_by: string; expires_at: string; verification_id: string };
    expect(claim.verification_id).toBe(id);
    const problem = expectProblem(lost, 409, "review_claimed");
    expect(problem.detail).toContain(claim.claimed_by);
    expect(Date.parse(claim.expires_at) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(Date.parse(claim.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);

    const holder = claim.claimed_by === reviewer.username ? reviewer : otherReviewer;
    const renewed = await staff(holder, "POST", `${reviews(id)}/claim`);
    expect(renewed.status).toBe(200);
    expect((renewed.json as { expires_at: string }).expires_at >= claim.expires_at).toBe(true);
  });

  it("is refused for a verification that is not in review (409) or does not exist (404)", async () => {
    const created = await fx.customer.created();
    expectProblem(
      await staff(reviewer, "POST", `${reviews(created.verification_id)}/claim`),
      409,
      "verification_not_in_review",
    );
    expectProblem(
      await staff(reviewer, "POST", `${reviews("ver_01ARZ3NDEKTSV4RRFFQ69G5FAV")}/claim`),
      404,
      "verification_not_found",
    );
    expectProblem(await staff(reviewer, "POST", `${reviews("nonsense")}/claim`), 404, "verification_not_found");
  });
});

describe("the decision", () => {
  it("needs If-Match, the current sequence and the claim; then completes the verification and sends its webhook", async () => {
    const waiting = await inReview();
    const id = waiting.verification_id;
    const read = await staff(reviewer, "GET", verification(id));
    expect(read.status, read.text).toBe(200);
    const etag = read.headers.get("etag");
    expect(etag).toBe(`"${waiting.sequence}"`);
    expect(read.json).toMatchObject({
      verification_id: id,
      app_id: fx.app.app_id,
      // The app by its name too, as the queue names it.
      app_name: (await fx.api.apps.getApp(fx.app.app_id))?.name,
      status: "in_review",
      copies: { upload: true, issuer: false },
      claim: null,
      decision: null,
    });

    const decide = (user: StaffUser, body: unknown, ifMatch?: string) =>
      staff(user, "POST", `${reviews(id)}/decision`, {
        body,
        headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
      });
    expectProblem(await decide(reviewer, rejection), 428, "precondition_required");
    expectProblem(await decide(reviewer, rejection, "*"), 428, "precondition_required");
    expectProblem(await decide(reviewer, rejection, etag ?? ""), 409, "review_not_claimed");
    expect((await staff(reviewer, "POST", `${reviews(id)}/claim`)).status).toBe(200);
    expectProblem(await decide(otherReviewer, rejection, etag ?? ""), 409, "review_claimed");
    expectProblem(await decide(reviewer, rejection, `"${waiting.sequence - 1}"`), 409, "sequence_mismatch");
    const missingReason = await decide(reviewer, { result: "rejected" }, etag ?? "");
    expect(expectProblem(missingReason, 422, "validation_failed").errors).toEqual([
      expect.objectContaining({ field: "reason_code", code: "required" }),
    ]);
    expectProblem(
      await decide(reviewer, { result: "verified", reason_code: "other" }, etag ?? ""),
      422,
      "validation_failed",
    );
    expectProblem(
      await decide(reviewer, { ...rejection, note: "n".repeat(1001) }, etag ?? ""),
      422,
      "validation_failed",
    );
    expectProblem(await decide(reviewer, { ...rejection, extra: 1 }, etag ?? ""), 422, "validation_failed");

    const decided = await decide(reviewer, rejection, etag ?? "");
    expect(decided.status, decided.text).toBe(200);
    expect(decided.headers.get("etag")).toBe(`"${waiting.sequence + 1}"`);
    expect(decided.json).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "not_genuine",
      claim: null,
      decision: { decided_by: reviewer.username, note: rejection.note },
    });
    expectProblem(await decide(reviewer, rejection, `"${waiting.sequence + 1}"`), 409, "verification_not_in_review");

    // The customer sees the decision, never who made it or the note.
    const seen = await fx.customer.get(id);
    expect(expectVerification(seen)).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "not_genuine",
      reasons: [{ code: "not_genuine" }],
      review: { required_at: expect.any(String), decided_at: expect.any(String) },
    });
    expect(seen.text).not.toContain(reviewer.username);
    expect(seen.text).not.toContain(rejection.note);

    const completed = await waitForEvent(id, "verification.completed");
    expect(JSON.parse(completed.body)).toMatchObject({
      type: "verification.completed",
      data: {
        verification: { verification_id: id, status: "completed", result: "rejected", reason_code: "not_genuine" },
      },
    });
    expect(completed.body).not.toContain(reviewer.username);
  });

  it("completes as verified with no reason code", async () => {
    const waiting = await inReview();
    const id = waiting.verification_id;
    expect((await staff(otherReviewer, "POST", `${reviews(id)}/claim`)).status).toBe(200);
    const decided = await staff(otherReviewer, "POST", `${reviews(id)}/decision`, {
      body: { result: "verified" },
      headers: { "If-Match": `"${waiting.sequence}"` },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(expectVerification(await fx.customer.get(id))).toMatchObject({
      status: "completed",
      result: "verified",
      reason_code: "verified",
      reasons: [],
      // A reviewer decided, without the issuer's copy: the message says both, and names nobody.
      message:
        "A reviewer verified the document; the issuer's copy was not compared, as the issuer could not be asked for it",
    });
  });
});

/** The signed delivery of `type` for verification `id`, checked with the app's secret. */
async function waitForEvent(id: string, type: string) {
  const deadline = Date.now() + 15_000;
  const webhook = new Webhook(fx.app.webhook_secret);
  while (Date.now() < deadline) {
    const delivery = fx.receiver.deliveries.find((candidate) => {
      const event = JSON.parse(candidate.body) as { type: string; data: { verification: { verification_id: string } } };
      return event.type === type && event.data.verification.verification_id === id;
    });
    if (delivery) {
      webhook.verify(delivery.body, delivery.headers);
      return delivery;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No ${type} delivery for ${id}`);
}

describe("documents", () => {
  it("answers 303 to a presigned GET valid 60 s of the pinned upload, or the link itself as JSON", async () => {
    const id = (await inReview()).verification_id;
    const redirect = await fetch(`${fx.api.backofficeUrl}${verification(id)}/document?copy=upload`, {
      headers: { Authorization: `Bearer ${reviewer.accessToken}` },
      redirect: "manual",
    });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("cache-control")).toBe("no-store");
    const location = redirect.headers.get("location") ?? "";
    expect(new URL(location).searchParams.get("X-Amz-Expires")).toBe("60");
    const document = await fetch(location);
    expect(document.status).toBe(200);
    expect(new Uint8Array(await document.arrayBuffer())).toEqual(certificate);

    const json = await staff(reviewer, "GET", `${verification(id)}/document?copy=upload`, {
      headers: { Accept: "application/json" },
    });
    expect(json.status, json.text).toBe(200);
    expect(json.json).toMatchObject({ copy: "upload", media_type: "application/pdf", url: expect.any(String) });
  });

  it("is 404 for a copy the verification does not have, 422 for a copy that does not exist", async () => {
    const id = (await inReview()).verification_id;
    expectProblem(await staff(reviewer, "GET", `${verification(id)}/document?copy=issuer`), 404, "document_not_found");
    expectProblem(await staff(reviewer, "GET", `${verification(id)}/document?copy=original`), 422, "validation_failed");
    expectProblem(await staff(reviewer, "GET", `${verification(id)}/document`), 422, "validation_failed");
  });
});

describe("the audit trail", () => {
  it("records every claim, decision, view and document link with who, when, the request id and the source address", async () => {
    const waiting = await inReview();
    const id = waiting.verification_id;
    const replies = [
      await staff(reviewer, "GET", verification(id)),
      await staff(reviewer, "GET", `${verification(id)}/document?copy=upload`, {
        headers: { Accept: "application/json" },
      }),
      await staff(reviewer, "POST", `${reviews(id)}/claim`),
      await staff(reviewer, "POST", `${reviews(id)}/decision`, {
        body: rejection,
        headers: { "If-Match": `"${waiting.sequence}"` },
      }),
    ];
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);

    const records: { action: string; request_id: string; audit_id: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?verification_id=${id}&limit=1${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const reply = await staff(admin, "GET", `/backoffice/v1/audit${query}`);
      expect(reply.status, reply.text).toBe(200);
      const page = reply.json as { data: typeof records; next_cursor: string | null };
      records.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(records.map((record) => record.action)).toEqual([
      "review.decided",
      "review.claimed",
      "document.viewed",
      "verification.viewed",
    ]);
    expect(records.map((record) => record.request_id)).toEqual(
      replies.map((reply) => reply.headers.get("request-id")).reverse(),
    );
    expect(records[0]).toMatchObject({
      actor: { pool: "staff", sub: reviewer.sub, username: reviewer.username },
      verification_id: id,
      app_id: fx.app.app_id,
      detail: { result: "rejected", reason_code: "not_genuine" },
      source_ip: expect.stringMatching(/127\.0\.0\.1/),
    });

    const byActor = await staff(admin, "GET", `/backoffice/v1/audit?actor=${reviewer.sub}&limit=100`);
    const actorRecords = (byActor.json as { data: { actor: { sub: string } }[] }).data;
    expect(actorRecords.length).toBeGreaterThanOrEqual(4);
    expect(actorRecords.every((record) => record.actor.sub === reviewer.sub)).toBe(true);
    const everyone = await staff(admin, "GET", "/backoffice/v1/audit?limit=5");
    expect((everyone.json as { data: unknown[] }).data).toHaveLength(5);
    expectProblem(
      await staff(admin, "GET", `/backoffice/v1/audit?verification_id=${id}&actor=${reviewer.sub}`),
      422,
      "validation_failed",
    );

    // Each reading of the trail is in it, by the admin who read it (a refused one is not).
    const readings = await staff(admin, "GET", `/backoffice/v1/audit?actor=${admin.sub}&limit=2`);
    expect((readings.json as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ action: "audit.viewed", detail: { results: "5" } }),
      expect.objectContaining({
        action: "audit.viewed",
        actor: expect.objectContaining({ sub: admin.sub }),
        detail: { actor: reviewer.sub, results: String(actorRecords.length) },
      }),
    ]);
  });

  it("narrows the trail by action and by time, page by page, and refuses a span that ends before it starts", async () => {
    const waiting = await inReview();
    const id = waiting.verification_id;
    const started = new Date(Date.now() - 1).toISOString();
    expect((await staff(reviewer, "POST", `${reviews(id)}/claim`)).status).toBe(200);
    const decided = await staff(reviewer, "POST", `${reviews(id)}/decision`, {
      body: rejection,
      headers: { "If-Match": `"${waiting.sequence}"` },
    });
    expect(decided.status, decided.text).toBe(200);
    const trail = async (query: string) => {
      const reply = await staff(admin, "GET", `/backoffice/v1/audit?${query}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.json as { data: { action: string; verification_id?: string }[]; next_cursor: string | null };
    };

    const ofAction = await trail(`verification_id=${id}&action=review.decided`);
    expect(ofAction.data.map((record) => record.action)).toEqual(["review.decided"]);
    // Everyone's claims since the test began, a record a page: this one's among them, and nothing else.
    const claims: { action: string; verification_id?: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await trail(
        `action=review.claimed&since=${started}&limit=1${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      claims.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(claims.every((record) => record.action === "review.claimed")).toBe(true);
    expect(claims.map((record) => record.verification_id)).toContain(id);
    expect((await trail(`verification_id=${id}&until=${started}`)).data).toEqual([]);
    expect((await trail(`verification_id=${id}&since=${new Date(Date.now() + 60_000).toISOString()}`)).data).toEqual(
      [],
    );
    expect(
      (await trail(`verification_id=${id}&since=${started}&until=${new Date(Date.now() + 60_000).toISOString()}`)).data
        .length,
    ).toBe(2);

    expectProblem(
      await staff(admin, "GET", `/backoffice/v1/audit?since=${started}&until=${started}`),
      422,
      "validation_failed",
    );
    expectProblem(await staff(admin, "GET", "/backoffice/v1/audit?action=review.deleted"), 422, "validation_failed");
  });

  it("offers no route that edits or deletes a record", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const reply = await staff(admin, method, "/backoffice/v1/audit");
      expectProblem(reply, 405, "method_not_allowed");
      expect(reply.headers.get("allow")).toBe("GET");
    }
  });
});
