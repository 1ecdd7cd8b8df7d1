import { describe, expect, it } from "vitest";
import type { AppItem } from "#shared/domain/apps";
import { encodeCursor } from "#shared/domain/lists";
import type { ReviewFilter } from "#shared/domain/review";
import { toResource, type VerificationItem } from "#shared/domain/verification";
import type { ReviewPosition } from "#shared/ports/verification-store";
import { authorizeStaff } from "#shared/use-cases/review/authorize-staff";
import { claimReview } from "#shared/use-cases/review/claim";
import { decideReview } from "#shared/use-cases/review/decide";
import { reviewQueue } from "#shared/use-cases/review/queue";
import {
  anApp,
  appId,
  aVerification,
  InMemoryAppStore,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const NOW = "2026-11-30T12:00:00Z";

function inReview(n: number, deadline: string, extra: Partial<VerificationItem> = {}): VerificationItem {
  return aVerification({
    verification_id: verificationId(n),
    status: "in_review",
    sequence: 3,
    review_reason: "issuer_unavailable",
    review_required_at: new Date(Date.parse(deadline) - 72 * 3600 * 1000).toISOString().replace(".000", ""),
    review_deadline: deadline,
    ...extra,
  });
}

const context = (sub: string) => ({
  actor: { pool: "staff" as const, sub, username: `user-${sub}` },
  requestId: `req-${sub}`,
  sourceIp: "192.0.2.1",
});

/** `count` UTC days from `first` (`YYYY-MM-DD`), in order. */
const daysFrom = (first: string, count: number) =>
  Array.from({ length: count }, (_, n) => new Date(Date.parse(first) + n * 86_400_000).toISOString().slice(0, 10));

/** The in-memory store, noting the days the queue reads and counts (each an index query when deployed). */
function countingDays(store: InMemoryVerificationStore) {
  const days: string[] = [];
  const counted: string[] = [];
  return {
    days,
    counted,
    verifications: {
      inReviewOn(day: string, filter: ReviewFilter, limit: number, after?: ReviewPosition) {
        days.push(day);
        return store.inReviewOn(day, filter, limit, after);
      },
      countInReviewOn(day: string, filter: ReviewFilter) {
        counted.push(day);
        return store.countInReviewOn(day, filter);
      },
    },
  };
}

/** An apps store holding `apps`, noting each app it is asked for. */
function readingApps(...apps: AppItem[]) {
  const store = new InMemoryAppStore();
  for (const app of apps) store.put(app);
  const reads: string[] = [];
  return {
    reads,
    apps: {
      getApp(id: string) {
        reads.push(id);
        return store.getApp(id);
      },
    },
  };
}

describe("reviewQueue", () => {
  // The app every verification below belongs to unless it names another.
  const apps = new InMemoryAppStore().put(anApp());

  it("refuses a cursor naming a deadline before the days it reads or after the last a window can close, reading nothing", async () => {
    const { days, counted, verifications } = countingDays(
      new InMemoryVerificationStore().put(inReview(1, "2026-12-01T10:00:00Z")),
    );
    const deps = { verifications, apps, clock: new FixedClock(NOW), environment: "sandbox" as const };
    for (const deadline of [
      "2019-11-30T12:00:00Z",
      // The day before the earliest a cursor may name (the day before the day before yesterday).
      "2026-11-26T23:59:59Z",
      // The day after the last day a window opened now (72 h) can close, with its day's margin.
      "2026-12-05T00:00:00Z",
      "9999-12-31T23:59:59Z",
    ]) {
      const cursor = encodeCursor({ deadline, id: verificationId(9) });
      await expect(reviewQueue(deps, { limit: 20, cursor }), deadline).rejects.toMatchObject({
        code: "invalid_cursor",
      });
    }
    expect(days).toEqual([]);
    expect(counted).toEqual([]);
  });

  it("reads and counts no more than the days from the day before yesterday to the last a window can close, a cursor's included", async () => {
    const { days, counted, verifications } = countingDays(new InMemoryVerificationStore());
    const deps = { verifications, apps, clock: new FixedClock(NOW), environment: "sandbox" as const };
    await reviewQueue(deps, { limit: 20 });
    expect(days).toEqual(daysFrom("2026-11-28", 7));
    expect(counted.sort()).toEqual(daysFrom("2026-11-28", 7));
    days.length = 0;
    counted.length = 0;
    // The earliest a cursor may name: the day before those, for one handed out yesterday.
    await reviewQueue(deps, {
      limit: 20,
      cursor: encodeCursor({ deadline: "2026-11-27T00:00:00Z", id: verificationId(9) }),
    });
    expect(days).toEqual(daysFrom("2026-11-27", 8));
    // The total is the same on every page: counted over the queue's own days.
    expect(counted.sort()).toEqual(daysFrom("2026-11-28", 7));
  });

  it("goes on from a cursor handed out yesterday that names a window the tick has not closed", async () => {
    const store = new InMemoryVerificationStore().put(
      inReview(1, "2026-11-28T08:00:00Z"),
      inReview(2, "2026-11-28T09:00:00Z"),
      inReview(3, "2026-12-01T10:00:00Z"),
    );
    const yesterday = { verifications: store, apps, clock: new FixedClock(NOW), environment: "sandbox" as const };
    const first = await reviewQueue(yesterday, { limit: 1 });
    expect(first.data.map((entry) => entry.verification_id)).toEqual([verificationId(1)]);
    const today = { ...yesterday, clock: new FixedClock("2026-12-01T11:00:00Z") };
    const next = await reviewQueue(today, { limit: 20, cursor: first.next_cursor ?? "" });
    expect(next.data.map((entry) => entry.verification_id)).toEqual([verificationId(2), verificationId(3)]);
  });

  it("reads the deadline index day by day, earliest first, and pages across days without repeating", async () => {
    const verifications = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-02T09:00:00Z"),
      inReview(2, "2026-11-30T13:00:00Z"),
      inReview(3, "2026-12-01T10:00:00Z"),
      inReview(4, "2026-11-29T23:00:00Z"),
      inReview(5, "2026-12-03T11:59:00Z"),
    );
    const deps = { verifications, apps, clock: new FixedClock(NOW), environment: "sandbox" as const };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await reviewQueue(deps, { limit: 2, cursor });
      seen.push(...page.data.map((entry) => entry.verification_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([4, 2, 3, 1, 5].map(verificationId));
  });

  it("shows a claim only while it holds", async () => {
    const verifications = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-01T10:00:00Z", {
        claimed_by: "ada",
        claimed_by_sub: "a",
        claim_expires_at: "2026-11-30T12:10:00Z",
      }),
      inReview(2, "2026-12-01T11:00:00Z", { claimed_by: "bo", claimed_by_sub: "b", claim_expires_at: NOW }),
    );
    const page = await reviewQueue(
      { verifications, apps, clock: new FixedClock(NOW), environment: "sandbox" },
      { limit: 20 },
    );
    expect(page.data.map((entry) => entry.claim)).toEqual([
      { claimed_by: "ada", expires_at: "2026-11-30T12:10:00Z" },
      null,
    ]);
  });

  it("keeps only the type and the reason asked for on every page, and counts all that match across pages", async () => {
    const store = new InMemoryVerificationStore().put(
      inReview(1, "2026-11-29T23:00:00Z", { document_type: "GSB_KYK_DORM", review_reason: "fields_incomplete" }),
      inReview(2, "2026-11-30T13:00:00Z", { document_type: "GSB_KYK_DORM" }),
      inReview(3, "2026-12-01T10:00:00Z"),
      inReview(4, "2026-12-02T09:00:00Z", { document_type: "GSB_KYK_DORM" }),
      inReview(5, "2026-12-03T11:59:00Z", { document_type: "GSB_KYK_DORM" }),
      inReview(6, "2026-12-03T12:00:00Z", { review_reason: "original_pdf_not_provided" }),
      // A window that closes after the queue's last day: neither shown nor counted.
      inReview(7, "2026-12-09T12:00:00Z", { document_type: "GSB_KYK_DORM" }),
    );
    const deps = { verifications: store, apps, clock: new FixedClock(NOW), environment: "sandbox" as const };
    const filter = { document_type: "GSB_KYK_DORM" as const, reason_code: "issuer_unavailable" as const };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await reviewQueue(deps, { limit: 2, cursor, ...filter });
      expect(page.total).toBe(3);
      expect(page.data.every((entry) => entry.document_type === "GSB_KYK_DORM")).toBe(true);
      expect(page.data.every((entry) => entry.reason_code === "issuer_unavailable")).toBe(true);
      seen.push(...page.data.map((entry) => entry.verification_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([2, 4, 5].map(verificationId));

    const photos = await reviewQueue(deps, { limit: 20, reason_code: "original_pdf_not_provided" });
    expect(photos.data.map((entry) => entry.verification_id)).toEqual([verificationId(6)]);
    expect(photos.total).toBe(1);
    const everything = await reviewQueue(deps, { limit: 2 });
    expect(everything.data).toHaveLength(2);
    expect(everything.total).toBe(6);
  });

  it("refuses a cursor with other filters than its page was read with", async () => {
    const store = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-01T10:00:00Z", { document_type: "GSB_KYK_DORM" }),
      inReview(2, "2026-12-01T11:00:00Z", { document_type: "GSB_KYK_DORM" }),
    );
    const deps = { verifications: store, apps, clock: new FixedClock(NOW), environment: "sandbox" as const };
    const first = await reviewQueue(deps, { limit: 1, document_type: "GSB_KYK_DORM" });
    const cursor = first.next_cursor ?? "";
    expect(cursor).not.toBe("");
    for (const other of [
      {},
      { document_type: "YOK_STUDENT" as const },
      { document_type: "GSB_KYK_DORM" as const, reason_code: "issuer_unavailable" as const },
    ]) {
      await expect(reviewQueue(deps, { limit: 1, cursor, ...other }), JSON.stringify(other)).rejects.toMatchObject({
        code: "invalid_cursor",
      });
    }
    const next = await reviewQueue(deps, { limit: 1, cursor, document_type: "GSB_KYK_DORM" });
    expect(next.data.map((entry) => entry.verification_id)).toEqual([verificationId(2)]);
  });

  it("names each app on the page by its name, read once per app; one with no name, or gone, by its id", async () => {
    const { reads, apps: reading } = readingApps(
      anApp(),
      anApp({ app_id: appId(2), name: "Beta Yurtları" }),
      anApp({ app_id: appId(3), name: "" }),
    );
    const store = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-01T10:00:00Z"),
      inReview(2, "2026-12-01T11:00:00Z", { app_id: appId(2) }),
      inReview(3, "2026-12-01T12:00:00Z"),
      inReview(4, "2026-12-01T13:00:00Z", { app_id: appId(3) }),
      inReview(5, "2026-12-01T14:00:00Z", { app_id: appId(4) }),
      inReview(6, "2026-12-01T15:00:00Z", { app_id: appId(2) }),
    );
    const deps = { verifications: store, apps: reading, clock: new FixedClock(NOW), environment: "sandbox" as const };
    const page = await reviewQueue(deps, { limit: 20 });
    expect(page.data.map((entry) => [entry.app_id, entry.app_name])).toEqual([
      [appId(1), "Acme Admissions"],
      [appId(2), "Beta Yurtları"],
      [appId(1), "Acme Admissions"],
      [appId(3), appId(3)],
      [appId(4), appId(4)],
      [appId(2), "Beta Yurtları"],
    ]);
    expect(reads.sort()).toEqual([1, 2, 3, 4].map(appId));
  });
});

describe("claimReview", () => {
  it("takes over a lapsed claim, refuses a live one naming its holder, and renews the holder's own", async () => {
    const clock = new FixedClock(NOW);
    const verifications = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-01T10:00:00Z", { claimed_by: "user-a", claimed_by_sub: "a", claim_expires_at: NOW }),
    );
    const audit = verifications.trail;
    const deps = { verifications, clock };
    const id = verificationId(1);

    await expect(claimReview(deps, context("b"), id)).resolves.toMatchObject({ claimed_by: "user-b" });
    await expect(claimReview(deps, context("a"), id)).rejects.toMatchObject({
      code: "review_claimed",
      message: "user-b holds the claim until 2026-11-30T12:15:00Z",
    });
    clock.advance(60);
    await expect(claimReview(deps, context("b"), id)).resolves.toMatchObject({ expires_at: "2026-11-30T12:16:00Z" });
    expect(audit.records.map((record) => [record.action, record.actor.sub, record.request_id])).toEqual([
      ["review.claimed", "b", "req-b"],
      ["review.claimed", "b", "req-b"],
    ]);
  });
});

describe("decideReview", () => {
  const decision = { result: "rejected" as const, reason_code: "not_genuine" as const, note: "seal differs" };

  it("refuses a lapsed claim at the write, so a claim that ran out mid-decision decides nothing", async () => {
    const clock = new FixedClock(NOW);
    const verifications = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-01T10:00:00Z", { claimed_by: "user-a", claimed_by_sub: "a", claim_expires_at: NOW }),
    );
    const audit = verifications.trail;
    const deps = { verifications, documents: new InMemoryDocumentStore(), apps: new InMemoryAppStore(), clock };
    await expect(
      decideReview(deps, context("a"), { verificationId: verificationId(1), ifMatch: '"3"', decision }),
    ).rejects.toMatchObject({ code: "review_not_claimed" });
    expect(verifications.stored(verificationId(1)).status).toBe("in_review");
    expect(audit.records).toEqual([]);
  });

  it("completes with the reviewer's decision, keeps their name and note for staff, and records it", async () => {
    const clock = new FixedClock(NOW);
    const verifications = new InMemoryVerificationStore().put(
      inReview(1, "2026-12-01T10:00:00Z", {
        claimed_by: "user-a",
        claimed_by_sub: "a",
        claim_expires_at: "2026-11-30T12:05:00Z",
      }),
    );
    const audit = verifications.trail;
    const apps = new InMemoryAppStore().put(anApp());
    const deps = { verifications, documents: new InMemoryDocumentStore(), apps, clock };
    const view = await decideReview(deps, context("a"), {
      verificationId: verificationId(1),
      ifMatch: '"3"',
      decision,
    });
    expect(view).toMatchObject({
      app_id: anApp().app_id,
      app_name: anApp().name,
      status: "completed",
      result: "rejected",
      reason_code: "not_genuine",
      sequence: 4,
      decision: { decided_by: "user-a", note: "seal differs" },
      claim: null,
    });
    expect(verifications.stored(verificationId(1))).toMatchObject({ review_decided_at: NOW, completed_at: NOW });
    expect(audit.records).toMatchObject([
      { action: "review.decided", detail: { result: "rejected", reason_code: "not_genuine" }, source_ip: "192.0.2.1" },
    ]);
  });
});

describe("decideReview: what the customer is told", () => {
  const decision = { result: "rejected" as const, reason_code: "not_genuine" as const };
  it.each([
    ["issuer_unavailable", "the issuer's copy was not compared, as the issuer could not be asked for it"],
    ["original_pdf_not_provided", "the issuer's copy was not compared, as a photo was sent instead of the PDF"],
    ["fields_incomplete", "the document's keys or the issuer's copy lacked what the checks need"],
  ] as const)(
    "after review for %s: a reviewer decided, and whether the issuer's copy was compared",
    async (reason, compared) => {
      const clock = new FixedClock(NOW);
      const claim = { claimed_by: "user-a", claimed_by_sub: "a", claim_expires_at: "2026-11-30T12:05:00Z" };
      const verifications = new InMemoryVerificationStore().put(
        inReview(1, "2026-12-01T10:00:00Z", { ...claim, review_reason: reason }),
        inReview(2, "2026-12-01T10:00:00Z", { ...claim, review_reason: reason }),
      );
      const deps = { verifications, documents: new InMemoryDocumentStore(), apps: new InMemoryAppStore(), clock };
      const decide = (n: number, body: typeof decision | { result: "verified" }) =>
        decideReview(deps, context("a"), { verificationId: verificationId(n), ifMatch: '"3"', decision: body });
      await decide(1, { result: "verified" });
      await decide(2, decision);

      const verified = toResource(verifications.stored(verificationId(1)), NOW);
      expect(verified).toMatchObject({ result: "verified", reason_code: "verified", reasons: [] });
      expect(verified.message).toBe(`A reviewer verified the document; ${compared}`);
      const rejected = toResource(verifications.stored(verificationId(2)), NOW);
      const message = `A reviewer found the document not genuine; ${compared}`;
      expect(rejected).toMatchObject({
        reason_code: "not_genuine",
        message,
        reasons: [{ code: "not_genuine", message }],
      });
      // The customer is told a reviewer decided, never who.
      expect(JSON.stringify([verified, rejected])).not.toContain("user-a");
    },
  );
});

describe("authorizeStaff", () => {
  const routes = [
    { method: "GET", path: "/backoffice/v1/reviews", groups: ["reviewers", "admins"] },
    { method: "GET", path: "/backoffice/v1/audit", groups: ["admins"] },
  ];
  const tokens = (groups: string[]) => ({
    verify: async (token: string) =>
      token === "a.b.c" ? { pool: "staff" as const, sub: "s", username: "u", groups } : undefined,
  });

  it("allows exactly the routes of the token's groups, and nothing for a token that is not a bearer token", async () => {
    const reviewer = await authorizeStaff({ tokens: tokens(["reviewers"]) }, "Bearer a.b.c", routes);
    expect(reviewer).toMatchObject({ outcome: "allow", routes: [routes[0]] });
    const nobody = await authorizeStaff({ tokens: tokens([]) }, "bearer a.b.c", routes);
    expect(nobody).toMatchObject({ outcome: "allow", routes: [] });
    for (const header of [undefined, "", "a.b.c", "Basic a.b.c", "Bearer a.b.d", "Bearer a.b.c extra"]) {
      expect(await authorizeStaff({ tokens: tokens(["admins"]) }, header, routes)).toEqual({ outcome: "unauthorized" });
    }
  });
});
