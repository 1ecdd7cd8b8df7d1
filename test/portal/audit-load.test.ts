/**
 * Audited reads under load, through HTTP: 20 lookups at once from one organisation for 20 s, each
 * writing its audit record, while a reviewer claims and decides. No answer is 5xx; the reviewer's
 * times during the load are printed beside their times alone, the ratio `npm run bench` reports
 * (asserting a ratio of times here would flake on a shared 2-core machine).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { VerificationResource } from "#shared/domain/responses/verification";
import type { StaffUser } from "../support/api.ts";
import { call, expectVerification, type Reply, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

// No issuer: every certificate waits in review, for the reviewer to decide.
const fx = useApiFixture({ pipeline: true, issuer: false });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

const LOOKUPS_AT_ONCE = 20;
const LOAD_MS = 20_000;
const DECISIONS = 5;

const bearer = (url: string, token: string, method: string, route: string, body?: unknown): Promise<Reply> =>
  call(url, method, route, {
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function inReview(): Promise<VerificationResource> {
  const created = await fx.customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
  expect((await upload(created, certificate)).status).toBe(200);
  return expectVerification(await fx.customer.confirm(created.verification_id));
}

/** Claims and decides `waiting`, one after another; the milliseconds each took. */
async function decideAll(reviewer: StaffUser, waiting: VerificationResource[]): Promise<number[]> {
  const took: number[] = [];
  for (const item of waiting) {
    const started = performance.now();
    const route = `/backoffice/v1/reviews/${item.verification_id}`;
    const claimed = await bearer(fx.api.backofficeUrl, reviewer.accessToken, "POST", `${route}/claim`);
    expect(claimed.status, claimed.text).toBe(200);
    const decided = await call(fx.api.backofficeUrl, "POST", `${route}/decision`, {
      headers: {
        Authorization: `Bearer ${reviewer.accessToken}`,
        "Content-Type": "application/json",
        "If-Match": `"${item.sequence}"`,
      },
      body: JSON.stringify({ result: "rejected", reason_code: "not_genuine", note: "Under load" }),
    });
    expect(decided.status, decided.text).toBe(200);
    took.push(performance.now() - started);
  }
  return took;
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

describe("audited reads under load", () => {
  it("answers 20 lookups at once from one organisation for 20 s without a 5xx, and a reviewer decides meanwhile", async () => {
    const [owner, reviewer] = await Promise.all([fx.api.portalUser("owner"), fx.api.staffUser(["reviewers"])]);
    const waiting: VerificationResource[] = [];
    for (let n = 0; n < 2 * DECISIONS; n += 1) waiting.push(await inReview());

    const alone = await decideAll(reviewer, waiting.slice(0, DECISIONS));

    const statuses = new Map<number, number>();
    const until = performance.now() + LOAD_MS;
    const lookups = Array.from({ length: LOOKUPS_AT_ONCE }, async (_, n) => {
      while (performance.now() < until) {
        const reply = await bearer(fx.api.portalUrl, owner.accessToken, "GET", `/portal/v1/lookup?q=load-${n}`);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }
    });
    const during = await decideAll(reviewer, waiting.slice(DECISIONS));
    await Promise.all(lookups);

    const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    const serverErrors = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
    console.log(
      `portal/audit-load: ${answered} lookups in ${LOAD_MS / 1000} s (${(answered / (LOAD_MS / 1000)).toFixed(1)}/s), statuses ${JSON.stringify(Object.fromEntries(statuses))}; a reviewer's claim and decision p99 ${p99(alone).toFixed(0)} ms alone, ${p99(during).toFixed(0)} ms during the load`,
    );
    expect(serverErrors).toBe(0);
    expect(statuses.get(200)).toBe(answered);
  }, 120_000);
});
