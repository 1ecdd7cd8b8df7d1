/**
 * Audited reads under load, through HTTP: lookups at once from one organisation, each writing its
 * audit record, while a reviewer claims and decides one review after another; the same reviewer
 * decides as many alone first, and (for a control) as many during as many reads at once of the
 * organisation's apps, which write no record. `test/portal/audit-load.test.ts` holds the lookups to
 * no 5xx; `npm run bench` reports the reviewer's times during each load against their times alone.
 */

/** A review waiting for its decision: the verification and the sequence its `If-Match` names. */
export interface Waiting {
  verification_id: string;
  sequence: number;
}

export interface AuditedLoadTarget {
  portalUrl: string;
  /** The organisation's owner who looks up. */
  ownerToken: string;
  backofficeUrl: string;
  /** A reviewer who claims and decides. */
  reviewerToken: string;
}

/** What the organisation reads at once: lookups, each audited, or its apps, which are not (the control). */
export type LoadRead = "lookup" | "apps";

const READ_PATHS: Record<LoadRead, (n: number) => string> = {
  lookup: (n) => `/portal/v1/lookup?q=load-${n}`,
  apps: () => "/portal/v1/apps",
};

/** One load and the reviewer's decisions during it. */
export interface UnderLoad {
  read: LoadRead;
  reads: number;
  seconds: number;
  /** The reads' statuses and how many answered each. */
  statuses: Record<string, number>;
  /** Each claim and decision during the load, claim to decision's answer (ms). */
  decisionMs: number[];
}

export interface AuditedLoadResult {
  readsAtOnce: number;
  /** Each claim and decision with nothing else running (ms). */
  aloneMs: number[];
  /** One per read asked for, in order. */
  loads: UnderLoad[];
}

async function send(url: string, token: string, method: string, headers: Record<string, string> = {}, body?: string) {
  const response = await fetch(url, { method, headers: { Authorization: `Bearer ${token}`, ...headers }, body });
  return { status: response.status, text: await response.text() };
}

/** Claims and decides `waiting`, one after another; the milliseconds each took. Fails on any refusal. */
export async function decideAll(target: AuditedLoadTarget, waiting: readonly Waiting[]): Promise<number[]> {
  const took: number[] = [];
  for (const item of waiting) {
    const started = performance.now();
    const route = `${target.backofficeUrl}/backoffice/v1/reviews/${item.verification_id}`;
    const claimed = await send(`${route}/claim`, target.reviewerToken, "POST");
    if (claimed.status !== 200) throw new Error(`The claim answered ${claimed.status}: ${claimed.text}`);
    const decided = await send(
      `${route}/decision`,
      target.reviewerToken,
      "POST",
      { "Content-Type": "application/json", "If-Match": `"${item.sequence}"` },
      JSON.stringify({ result: "rejected", reason_code: "not_genuine", note: "Under load" }),
    );
    if (decided.status !== 200) throw new Error(`The decision answered ${decided.status}: ${decided.text}`);
    took.push(performance.now() - started);
  }
  return took;
}

/** What a load of reads answered: how many, over how long, and each status's count. */
export type ReadsDone = Pick<UnderLoad, "reads" | "seconds" | "statuses">;

/**
 * `atOnce` loops of reads of `read` by the organisation's owner, until `done()` holds, each loop
 * asking once more after every answer.
 */
export async function readUntil(
  organization: Pick<AuditedLoadTarget, "portalUrl" | "ownerToken">,
  options: { read: LoadRead; atOnce: number },
  done: () => boolean,
): Promise<ReadsDone> {
  const statuses: Record<string, number> = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.atOnce }, async (_, n) => {
      while (!done()) {
        const url = `${organization.portalUrl}${READ_PATHS[options.read](n)}`;
        const reply = await send(url, organization.ownerToken, "GET");
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
      }
    }),
  );
  return {
    reads: Object.values(statuses).reduce((sum, count) => sum + count, 0),
    seconds: (performance.now() - started) / 1000,
    statuses,
  };
}

/** Decides `waiting` while `atOnce` reads of `read` run, for at least `minLoadMs` and until the last decision. */
async function decideUnderLoad(
  target: AuditedLoadTarget,
  waiting: readonly Waiting[],
  options: { read: LoadRead; atOnce: number; minLoadMs: number },
): Promise<UnderLoad> {
  const started = performance.now();
  let decided = false;
  const reads = readUntil(target, options, () => decided && performance.now() - started >= options.minLoadMs);
  const decisionMs = await decideAll(target, waiting).finally(() => {
    decided = true;
  });
  return { read: options.read, ...(await reads), decisionMs };
}

/**
 * Decides `waiting` in equal parts: the first alone, then one part during each load of `reads`
 * (`readsAtOnce` at once, each lasting at least `minLoadMs` and until its last decision).
 */
export async function measureAuditedLoad(
  target: AuditedLoadTarget,
  waiting: readonly Waiting[],
  options: { reads: readonly LoadRead[]; readsAtOnce: number; minLoadMs: number },
): Promise<AuditedLoadResult> {
  const part = Math.floor(waiting.length / (options.reads.length + 1));
  const aloneMs = await decideAll(target, waiting.slice(0, part));
  const loads: UnderLoad[] = [];
  for (const [n, read] of options.reads.entries()) {
    const decisions = waiting.slice((n + 1) * part, (n + 2) * part);
    loads.push(
      await decideUnderLoad(target, decisions, { read, atOnce: options.readsAtOnce, minLoadMs: options.minLoadMs }),
    );
  }
  return { readsAtOnce: options.readsAtOnce, aloneMs, loads };
}

/** The 99th percentile of `values` (the largest of fewer than 100). */
export const p99 = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;
