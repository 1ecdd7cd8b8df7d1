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
import { measureAuditedLoad, p99 } from "../support/audited-load.ts";
import { expectVerification, upload } from "../support/client.ts";
import { useApiFixture } from "../support/fixture.ts";

// No issuer: every certificate waits in review, for the reviewer to decide.
const fx = useApiFixture({ pipeline: true, issuer: false });
const certificate = new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents/yok-active.pdf")));

const DECISIONS = 5;

async function inReview(): Promise<VerificationResource> {
  const created = await fx.customer.created({ file_size_bytes: certificate.length, process_type: "sync" });
  expect((await upload(created, certificate)).status).toBe(200);
  return expectVerification(await fx.customer.confirm(created.verification_id));
}

describe("audited reads under load", () => {
  it("answers 20 lookups at once from one organisation for 20 s without a 5xx, and a reviewer decides meanwhile", async () => {
    const [owner, reviewer] = await Promise.all([fx.api.portalUser("owner"), fx.api.staffUser(["reviewers"])]);
    const waiting: VerificationResource[] = [];
    for (let n = 0; n < 2 * DECISIONS; n += 1) waiting.push(await inReview());

    const run = await measureAuditedLoad(
      {
        portalUrl: fx.api.portalUrl,
        ownerToken: owner.accessToken,
        backofficeUrl: fx.api.backofficeUrl,
        reviewerToken: reviewer.accessToken,
      },
      waiting,
      { reads: ["lookup"], readsAtOnce: 20, minLoadMs: 20_000 },
    );
    const [lookups] = run.loads;
    if (!lookups) throw new Error("The lookups' load did not run");

    const serverErrors = Object.entries(lookups.statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    console.log(
      `portal/audit-load: ${lookups.reads} lookups in ${lookups.seconds.toFixed(1)} s (${(lookups.reads / lookups.seconds).toFixed(1)}/s), statuses ${JSON.stringify(lookups.statuses)}; a reviewer's claim and decision p99 ${p99(run.aloneMs).toFixed(0)} ms alone, ${p99(lookups.decisionMs).toFixed(0)} ms during the load`,
    );
    expect(lookups.decisionMs).toHaveLength(DECISIONS);
    expect(serverErrors).toBe(0);
    expect(lookups.statuses[200]).toBe(lookups.reads);
  }, 120_000);
});
