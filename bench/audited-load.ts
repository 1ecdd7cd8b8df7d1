/**
 * Audited reads under load: an organisation's owner looks up 20 at once, each lookup writing its
 * audit record, while a reviewer claims and decides reviews; the reviewer's times during the load
 * against their times alone and during as many unaudited reads at once (the organisation's apps),
 * in the same run. No issuer is asked, so every certificate waits in
 * review (a runtime of its own: the functions read which issuer they ask at their cold start).
 */

import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type AuditedLoadResult, measureAuditedLoad, type Waiting } from "../test/support/audited-load.ts";
import { BenchCustomer, expectResource, overHttp, upload } from "./customer.ts";
import { CERTIFICATE } from "./flow.ts";
import type { BenchApi } from "./local-api.ts";

export type { AuditedLoadResult } from "../test/support/audited-load.ts";

export interface AuditedLoadOptions {
  /** Decisions alone, then as many again during each load (the apps' reads, then the lookups). */
  decisions: number;
  readsAtOnce: number;
  /** The load lasts at least this long, and until the last decision during it. */
  minLoadSeconds: number;
}

/** Reviews waiting for a decision: created, uploaded and confirmed, each waiting in review. */
async function inReview(api: BenchApi, count: number): Promise<Waiting[]> {
  const certificate = new Uint8Array(await readFile(CERTIFICATE));
  const customer = new BenchCustomer(overHttp(api.baseUrl), (await api.newApp()).api_key);
  const body = JSON.stringify({
    document_type: "YOK_STUDENT",
    external_reference_id: "student-4711",
    original_filename: "ogrenci-belgesi.pdf",
    file_size_bytes: certificate.length,
    process_type: "sync",
  });
  const waiting: Waiting[] = [];
  while (waiting.length < count) {
    const created = expectResource(await customer.create(randomUUID(), body), 201);
    const uploaded = await upload(created, certificate);
    if (uploaded !== 200) throw new Error(`The upload was refused with ${uploaded}`);
    const confirmed = expectResource(await customer.confirm(created.verification_id), 200);
    if (confirmed.status !== "in_review") throw new Error(`A certificate came out ${confirmed.status}, not in review`);
    waiting.push(confirmed);
  }
  return waiting;
}

export async function benchAuditedLoad(api: BenchApi, options: AuditedLoadOptions): Promise<AuditedLoadResult> {
  const [owner, reviewer] = await Promise.all([api.newOwner(), api.newStaffUser(["reviewers"])]);
  const waiting = await inReview(api, 3 * options.decisions);
  return measureAuditedLoad(
    {
      portalUrl: api.portalUrl,
      ownerToken: owner.accessToken,
      backofficeUrl: api.backofficeUrl,
      reviewerToken: reviewer.accessToken,
    },
    waiting,
    { reads: ["apps", "lookup"], readsAtOnce: options.readsAtOnce, minLoadMs: options.minLoadSeconds * 1000 },
  );
}
