/**
 * Audited reads under load: an organisation's owner looks up 20 at once, each lookup writing its
 * audit record, while a reviewer claims and decides reviews; the reviewer's times during the load
 * against their times alone and during as many unaudited reads at once (the organisation's apps),
 * then during the lookups sent from a process of their own at two CPU priorities
 * (`reads-apart.ts`), in the same run. No issuer is asked, so every certificate waits in
 * review (a runtime of its own: the functions read which issuer they ask at their cold start).
 */

import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  type AuditedLoadResult,
  type AuditedLoadTarget,
  decideAll,
  measureAuditedLoad,
  type UnderLoad,
  type Waiting,
} from "../test/support/audited-load.ts";
import { BenchCustomer, expectResource, overHttp, upload } from "./customer.ts";
import { CERTIFICATE } from "./flow.ts";
import type { BenchApi } from "./local-api.ts";
import type { FromReads, ReadsApartOptions, ToReads } from "./reads-apart.ts";

export interface AuditedLoadOptions {
  /** Decisions alone, then as many again during each load (the apps' reads, the lookups, the lookups apart). */
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

/**
 * The CPU priorities (`nice`) the lookups apart are run at: the reviewer's own (the two processes
 * share the CPUs evenly), and the lowest (the reviewer's functions take the CPU they need first,
 * as a function's own CPU in Lambda lets it).
 */
export const APART_PRIORITIES = [0, 19] as const;

/** The lookups from a process of their own at CPU priority `nice`, and the reviewer's decisions meanwhile. */
export interface ApartLoad extends UnderLoad {
  nice: number;
}

export interface BenchAuditedLoad extends AuditedLoadResult {
  /** One per priority of `APART_PRIORITIES`, in order. */
  apart: ApartLoad[];
}

/**
 * Decides `waiting` while the owner's lookups run from a process of their own
 * (`reads-apart.ts`) at CPU priority `nice`, for at least `minLoadMs` and until the last decision.
 */
async function decideDuringReadsApart(
  target: AuditedLoadTarget,
  waiting: readonly Waiting[],
  options: { atOnce: number; minLoadMs: number; nice: number },
): Promise<ApartLoad> {
  const reads: ReadsApartOptions = {
    ownerToken: target.ownerToken,
    atOnce: options.atOnce,
    minLoadMs: options.minLoadMs,
  };
  const child = fork(path.join(__dirname, "reads-apart.ts"), [JSON.stringify(reads)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  try {
    const heard = <T>(pick: (message: FromReads) => T | undefined) =>
      new Promise<T>((resolve, reject) => {
        child.on("message", (message: FromReads) => {
          const picked = pick(message);
          if (picked !== undefined) resolve(picked);
        });
        child.on("exit", (code) => reject(new Error(`The lookups apart stopped (exit ${code}) before answering`)));
      });
    const ready = heard((message) => ("ready" in message ? true : undefined));
    const done = heard((message) => ("done" in message ? message.done : undefined));
    if (child.pid === undefined) throw new Error("The lookups apart did not start");
    os.setPriority(child.pid, options.nice);
    await ready;
    const tell = (word: ToReads) => child.send(word);
    tell("go");
    const decisionMs = await decideAll(target, waiting).finally(() => tell("stop"));
    return { read: "lookup", nice: options.nice, ...(await done), decisionMs };
  } finally {
    child.kill();
  }
}

export async function benchAuditedLoad(api: BenchApi, options: AuditedLoadOptions): Promise<BenchAuditedLoad> {
  const [owner, reviewer] = await Promise.all([api.newOwner(), api.newStaffUser(["reviewers"])]);
  const parts = 3 + APART_PRIORITIES.length;
  const waiting = await inReview(api, parts * options.decisions);
  const target: AuditedLoadTarget = {
    portalUrl: api.portalUrl,
    ownerToken: owner.accessToken,
    backofficeUrl: api.backofficeUrl,
    reviewerToken: reviewer.accessToken,
  };
  const minLoadMs = options.minLoadSeconds * 1000;
  const inProcess = await measureAuditedLoad(target, waiting.slice(0, 3 * options.decisions), {
    reads: ["apps", "lookup"],
    readsAtOnce: options.readsAtOnce,
    minLoadMs,
  });
  const apart: ApartLoad[] = [];
  for (const [n, nice] of APART_PRIORITIES.entries()) {
    const decisions = waiting.slice((3 + n) * options.decisions, (4 + n) * options.decisions);
    apart.push(await decideDuringReadsApart(target, decisions, { atOnce: options.readsAtOnce, minLoadMs, nice }));
  }
  return { ...inProcess, apart };
}
