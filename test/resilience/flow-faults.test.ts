/**
 * The whole flow under injected faults, end to end: customers create, upload and confirm the
 * published test certificates while DynamoDB throttles, fails and drops requests (and answers
 * 500 to a share of writes it has applied, so the SDK sends them again), the S3 engine answers
 * 5xx and drops, e-Devlet is busy or never answers for a share of lookups, the
 * customer's webhook endpoint fails or hangs for a share of deliveries, and the change stream's
 * consumer and the delivery queue's reader crash half way through a share of their batches. A
 * pair of reviewers decide what waits in review through the backoffice API, under the same faults.
 *
 * Then the endpoint recovers and the tick makes the retries (the clock moved past the schedule's
 * delays). For every run: every verification started reaches a terminal state, by exactly one
 * terminal transition with exactly one terminal event; every event reaches the endpoint with a
 * `2xx`, always with the same signed payload, and is recorded as delivered (delivery is at least
 * once: a second `2xx` only where the product did not see the first succeed); each terminal state
 * is counted once in the app's usage; each reviewer decision is in the audit trail once, and the
 * trail's chain verifies.
 *
 * The short form runs in `npm test`; `RESILIENCE_FULL=1` (`npm run test:resilience`) runs more
 * verifications at higher rates. `RESILIENCE_SEED` picks the faults.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { KMSClient } from "@aws-sdk/client-kms";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { SEAL_MARGIN_MS } from "#shared/domain/audit-digests";
import { isTerminal } from "#shared/domain/state";
import { isoSeconds } from "#shared/domain/time";
import { USAGE_OUTCOMES, usageOutcome } from "#shared/domain/usage";
import type { VerificationItem } from "#shared/domain/verification";
import type { AttemptItem, EventItem } from "#shared/domain/webhook-events";
import { sealAudit } from "#shared/use-cases/audit/seal";
import { verifyAuditTrail } from "#shared/use-cases/audit/verify";
import { RETRY_DELAYS_SECONDS, RETRY_JITTER } from "#shared/use-cases/webhooks/delivery";
import { auditIn, sealingIn } from "#shared/wiring/stores/audit";
import { type Engine, freePort, LOCAL_REGION, startS3 } from "../../local/engines.ts";
import { type StaffUser, startApi, type TestApi } from "../support/api.ts";
import { call, expectVerification, type Reply } from "../support/client.ts";
import { ContractClient } from "../support/contract-client.ts";
import { type CrashingPipeline, InjectedCrash, startCrashingPipeline } from "../support/crashing-pipeline.ts";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy.ts";
import { FixedClock } from "../support/fixed-clock.ts";
import { type FlakyReceiver, startFlakyReceiver } from "../support/flaky-receiver.ts";
import { type IssuerFaults, startIssuerFaults } from "../support/issuer-faults.ts";
import { type LostReplies, startLostReplies } from "../support/lost-replies.ts";

const FULL = process.env.RESILIENCE_FULL === "1";
const SEED = Number(process.env.RESILIENCE_SEED ?? 9100);
const PROFILE = FULL
  ? {
      verifications: 48,
      customersAtOnce: 12,
      store: { throttle: 0.08, error: 0.08, drop: 0.04 },
      lostReplies: 0.05,
      issuer: { busy: 0.3, timeout: 0.08 },
      receiver: { fail: 0.3, hang: 0.08 },
      crashRate: 0.12,
      retryWindowSeconds: 30,
      settleMs: 240_000,
    }
  : {
      // One timeout and one hang in all: the first lookup and the first delivery.
      verifications: 16,
      customersAtOnce: 16,
      store: { throttle: 0.05, error: 0.05, drop: 0.02 },
      lostReplies: 0.02,
      issuer: { busy: 0.2, timeout: 0 },
      receiver: { fail: 0.2, hang: 0 },
      crashRate: 0.08,
      retryWindowSeconds: 8,
      settleMs: 60_000,
    };

/** The published certificates, one per outcome the issuer, the rules or a reviewer decides. */
const CERTIFICATES = [
  { file: "yok-active.pdf", type: "YOK_STUDENT" },
  { file: "gsb-accommodated.pdf", type: "GSB_KYK_DORM" },
  { file: "yok-graduated.pdf", type: "YOK_STUDENT" },
  { file: "gsb-unknown-barcode.pdf", type: "GSB_KYK_DORM" },
  { file: "yok-altered.pdf", type: "YOK_STUDENT" },
  // Waits in review: a reviewer decides it.
  { file: "gsb-fields-incomplete.pdf", type: "GSB_KYK_DORM" },
  // e-Devlet stays busy for it: in review once the retry window has passed.
  { file: "gsb-issuer-unavailable.pdf", type: "GSB_KYK_DORM" },
  // Unreadable: failed, never asked.
  { file: "yok-encrypted.pdf", type: "YOK_STUDENT" },
].map((certificate) => ({
  ...certificate,
  bytes: new Uint8Array(readFileSync(path.resolve(__dirname, "../../docs/test-documents", certificate.file))),
}));

let dynamoProxy: FaultProxy;
let lostReplies: LostReplies;
let s3Proxy: FaultProxy;
let s3: Engine;
let issuer: IssuerFaults;
let receiver: FlakyReceiver;
let api: TestApi;
let flow: CrashingPipeline;
let reviewers: StaffUser[];
let dynamo: DynamoDBClient;
const unexpected: unknown[] = [];

beforeAll(async () => {
  const s3Port = await freePort();
  dynamoProxy = await startFaultProxy(inject("engines").dynamoEndpoint);
  lostReplies = await startLostReplies(dynamoProxy.endpoint, {
    seed: SEED + 5,
    rate: PROFILE.lostReplies,
    // A create whose in-progress record applied with its answer lost meets that record on the SDK's
    // retry and answers 409 in progress to itself until the record lapses with the request's time
    // (29 s): a delay for the customer, neither a lost nor a second verification.
    spare: (table) => table === api.tables.idempotency,
  });
  s3Proxy = await startFaultProxy(`http://127.0.0.1:${s3Port}`, { service: "s3" });
  issuer = await startIssuerFaults({ seed: SEED + 2, rates: PROFILE.issuer });
  receiver = await startFlakyReceiver({ seed: SEED + 3, rates: PROFILE.receiver });
  api = await startApi({
    dynamoEndpoint: lostReplies.endpoint,
    s3Endpoint: s3Proxy.endpoint,
    issuer: {
      settings: {
        EDEVLET_URL: issuer.url,
        EDEVLET_MOBILE_URL: issuer.url,
        ISSUER_RETRY_WINDOW_S: String(PROFILE.retryWindowSeconds),
      },
    },
  });
  issuer.upstream = (api.simulator as NonNullable<TestApi["simulator"]>).url;
  // Started after startApi, so its signature check signs as the functions' client does: for the proxy.
  s3 = await startS3({ port: s3Port, credentials: inject("engines").credentials });
  dynamo = new DynamoDBClient({
    endpoint: inject("engines").dynamoEndpoint,
    region: LOCAL_REGION,
    credentials: inject("engines").credentials,
  });
  flow = await startCrashingPipeline(api, {
    dynamoEndpoint: inject("engines").dynamoEndpoint,
    seed: SEED + 4,
    crashRate: PROFILE.crashRate,
    onError: (error) => {
      if (!(error instanceof InjectedCrash)) unexpected.push(error);
    },
  });
  reviewers = await Promise.all([api.staffUser(["reviewers"]), api.staffUser(["reviewers"])]);
});
afterAll(async () => {
  vi.useRealTimers();
  await flow?.stop();
  await api?.stop();
  await s3?.stop();
  await s3Proxy?.stop();
  await lostReplies?.stop();
  await dynamoProxy?.stop();
  await issuer?.stop();
  await receiver?.stop();
  dynamo?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `probe` answers, for at most `ms` of real time (the clock may be moved meanwhile). */
async function waitFor<T>(what: () => string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() - started > ms) throw new Error(`${what()} did not happen within ${ms} ms`);
    await sleep(200);
  }
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** Runs `work` for each of `items`, `limit` at a time. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

/**
 * A reviewer at the review console, through the backoffice API: takes what waits, claims it,
 * reads it and decides, as a person would click again after an error page or a lost connection.
 */
class Reviewer {
  readonly stats = { requests: 0, retries: 0, claims: 0 };
  /** The verifications this reviewer's decision completed. */
  readonly decided = new Set<string>();

  constructor(
    private readonly user: StaffUser,
    private readonly ours: Set<string>,
    /** Which end of the queue this reviewer starts from: two reviewers meet in the middle. */
    private readonly from: "oldest" | "newest",
  ) {}

  /** The request until it is answered below 500. */
  private async staff(method: string, route: string, headers: Record<string, string> = {}, body?: unknown) {
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 1) this.stats.retries += 1;
      this.stats.requests += 1;
      let reply: Reply;
      try {
        reply = await call(api.backofficeUrl, method, route, {
          headers: {
            Authorization: `Bearer ${this.user.accessToken}`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        if (!(error instanceof TypeError) || attempt >= 20) throw error;
        await sleep(100 * attempt);
        continue;
      }
      if ((reply.status < 500 && reply.status !== 429) || attempt >= 20) return reply;
      await sleep(100 * attempt);
    }
  }

  /** What of ours waits in review now. */
  async waiting(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "?limit=100" : `?limit=100&cursor=${encodeURIComponent(cursor)}`;
      const reply = await this.staff("GET", `/backoffice/v1/reviews${query}`);
      expect(reply.status, reply.text).toBe(200);
      const page = reply.json as { data: { verification_id: string }[]; next_cursor: string | null };
      ids.push(...page.data.map((entry) => entry.verification_id).filter((id) => this.ours.has(id)));
      cursor = page.next_cursor;
    } while (cursor !== null);
    return this.from === "oldest" ? ids : ids.reverse();
  }

  /** Claims, reads and decides `id`: verified or rejected by turns. */
  async decide(id: string): Promise<void> {
    const claim = await this.staff("POST", `/backoffice/v1/reviews/${id}/claim`);
    // 409: the other reviewer holds it, or has decided it.
    if (claim.status === 409) return;
    expect(claim.status, claim.text).toBe(200);
    this.stats.claims += 1;
    const read = await this.staff("GET", `/backoffice/v1/verifications/${id}`);
    expect(read.status, read.text).toBe(200);
    if ((read.json as { status: string }).status !== "in_review") return;
    const decision =
      this.decided.size % 2 === 0
        ? { result: "verified" }
        : { result: "rejected", reason_code: "not_genuine", note: "Seal differs from the issuer's template" };
    const decided = await this.staff(
      "POST",
      `/backoffice/v1/reviews/${id}/decision`,
      { "If-Match": read.headers.get("etag") ?? "" },
      decision,
    );
    if (decided.status === 409) {
      // An earlier try of this decision may have applied though its answer was lost: the console shows whose it is.
      const after = await this.staff("GET", `/backoffice/v1/verifications/${id}`);
      const recorded = (after.json as { decision: { decided_by: string } | null }).decision;
      if (recorded?.decided_by === this.user.username) this.decided.add(id);
      return;
    }
    expect(decided.status, decided.text).toBe(200);
    this.decided.add(id);
  }

  /** Decides whatever of ours waits, until `stopped` says to stop. */
  async work(stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      for (const id of await this.waiting()) await this.decide(id);
      await sleep(300);
    }
  }
}

type Confirmed = { id: string; file: string };
type App = Awaited<ReturnType<TestApi["newApp"]>>;

/** Customers create, upload and confirm `PROFILE.verifications` certificates, each noted in `ours`. */
async function customersConfirm(client: ContractClient, ours: Set<string>): Promise<Confirmed[]> {
  const indexes = Array.from({ length: PROFILE.verifications }, (_, i) => i);
  return pooled(indexes, PROFILE.customersAtOnce, async (i) => {
    const certificate = CERTIFICATES[i % CERTIFICATES.length] as (typeof CERTIFICATES)[number];
    const body = {
      document_type: certificate.type,
      original_filename: certificate.file,
      file_size_bytes: certificate.bytes.length,
      external_reference_id: `flow-${SEED}-${i}`,
    };
    const created = await client.create(body, `flow-${SEED}-${i}`);
    expect(created?.status, created?.text).toBe(201);
    const resource = expectVerification(created as Reply);
    ours.add(resource.verification_id);
    expect(await client.upload(resource, certificate.bytes)).toBe(200);
    const confirm = await client.confirm(resource.verification_id);
    expect(confirm?.status, confirm?.text).toBe(200);
    return { id: resource.verification_id, file: certificate.file };
  });
}

/** The reviewers at work until stopped; a failure of theirs is kept, and thrown by `failed` and `stop`. */
function startReviewing(staff: Reviewer[]) {
  let settled = false;
  let reviewFailure: unknown;
  const reviewing = Promise.all(staff.map((person) => person.work(() => settled))).catch((error: unknown) => {
    reviewFailure = error;
  });
  return {
    failed() {
      if (reviewFailure) throw reviewFailure;
    },
    async stop() {
      settled = true;
      await reviewing;
      if (reviewFailure) throw reviewFailure;
    },
  };
}

/** Every verification of ours reaching a terminal state under the faults, the reviewers deciding what waits; the final items. */
async function allTerminal(
  ours: Set<string>,
  reviewing: ReturnType<typeof startReviewing>,
): Promise<VerificationItem[]> {
  let statuses: Record<string, number> = {};
  let pending: VerificationItem[] = [];
  const finals = await waitFor(
    () => `every verification reaching a terminal state (now ${JSON.stringify(statuses)}; ${JSON.stringify(pending)})`,
    PROFILE.settleMs,
    async () => {
      reviewing.failed();
      const items = (await api.scan(api.tables.verifications)) as unknown as VerificationItem[];
      const mine = items.filter((item) => ours.has(item.verification_id));
      statuses = countBy(mine.map((item) => item.status));
      pending = mine.filter((item) => !isTerminal(item.status));
      return mine.length === ours.size && mine.every((item) => isTerminal(item.status)) ? mine : undefined;
    },
  );
  await reviewing.stop();
  return finals;
}

/** The app's events, not their attempts. */
const eventsOf = async (app: App) =>
  (await api.scan(api.tables.events)).filter(
    (item) => item.sk === "EVENT" && item.app_id === app.app_id,
  ) as unknown as EventItem[];

/**
 * The tick makes the retries (the clock moved past the schedule's delays): once more against the
 * failing endpoint, then it recovers. Answers what each tick attempted.
 */
async function retriesByTheTick(app: App): Promise<(number | "failed")[]> {
  const [firstDelay, secondDelay] = RETRY_DELAYS_SECONDS.sandbox as [number, number];
  let clock = Date.now();
  const ticks: (number | "failed")[] = [];
  /** One tick at `seconds` later; one that fails (a store call failed past the SDK's retries) is done again a minute later, as the schedule does. */
  const tickAt = async (seconds: number) => {
    clock += seconds * 1000;
    vi.setSystemTime(clock);
    try {
      ticks.push(((await api.handlers.tick()) as { attempted: number }).attempted);
    } catch {
      ticks.push("failed");
    }
  };
  vi.useFakeTimers({ toFake: ["Date"], now: clock });
  try {
    await tickAt(firstDelay * (1 + RETRY_JITTER) + 5);
    receiver.recover();
    // Then until nothing is due: what a fault left (a failed tick, claim or record) is due again once its lease passes.
    for (let round = 0; round < 12; round += 1) {
      await tickAt(secondDelay * (1 + RETRY_JITTER) + 5);
      if ((await eventsOf(app)).every((event) => event.status !== "pending")) break;
    }
  } finally {
    vi.useRealTimers();
  }
  return ticks;
}

/** Every verification started: terminal, by one transition, with one terminal event. */
function expectTerminalOnce(finals: VerificationItem[], confirmed: Confirmed[], events: EventItem[]): void {
  expect(finals.map((item) => item.verification_id).sort()).toEqual(confirmed.map((c) => c.id).sort());
  const transitions = flow.terminalTransitions();
  for (const item of finals) {
    expect(["completed", "failed"], item.verification_id).toContain(item.status);
    expect(transitions.get(item.verification_id), `terminal transitions of ${item.verification_id}`).toHaveLength(1);
    const about = events.filter((event) => event.verification_id === item.verification_id);
    const sequences = about.map((event) => event.sequence);
    expect(new Set(sequences).size, `events of ${item.verification_id}: ${sequences}`).toBe(sequences.length);
    const terminal = about.filter((event) => ["verification.completed", "verification.failed"].includes(event.type));
    expect(
      terminal.map((event) => [event.type, event.sequence]),
      item.verification_id,
    ).toEqual([[`verification.${item.status}`, item.sequence]]);
  }
}

/** Every event: recorded as delivered, and answered 2xx with its one signed payload. Answers the 2xx answers past each first. */
function expectDeliveredOnce(events: EventItem[], attempts: AttemptItem[]): number {
  expect(countBy(events.map((event) => event.status))).toEqual({ delivered: events.length });
  const deliveriesOf = new Map<string, typeof receiver.deliveries>();
  for (const delivery of receiver.deliveries) {
    deliveriesOf.set(delivery.eventId, [...(deliveriesOf.get(delivery.eventId) ?? []), delivery]);
  }
  expect(receiver.deliveries.every((delivery) => delivery.signatureValid)).toBe(true);
  expect([...deliveriesOf.keys()].sort()).toEqual(events.map((event) => event.event_id).sort());
  let repeated2xx = 0;
  for (const event of events) {
    const received = deliveriesOf.get(event.event_id) ?? [];
    expect(new Set(received.map((delivery) => delivery.body)), event.event_id).toEqual(new Set([event.body]));
    const succeeded = received.filter((delivery) => delivery.answer === 200).length;
    const recorded = attempts.filter((attempt) => attempt.event_id === event.event_id);
    expect(succeeded, `2xx answers for ${event.event_id}`).toBeGreaterThanOrEqual(1);
    expect(
      recorded.filter((attempt) => attempt.outcome === "delivered"),
      event.event_id,
    ).toHaveLength(1);
    // At least once: a second 2xx only where the product lost the record of an attempt.
    // At least once: a 2xx past the first only for an attempt the product did not see succeed, because
    // its record was lost (a store call failed past the SDK's retries) or the answer came after the timeout.
    const unseen =
      received.length -
      recorded.length +
      recorded.filter((attempt) => attempt.outcome === "failed" && attempt.status_code === undefined).length;
    expect(succeeded - 1, `2xx answers for ${event.event_id} the product did not see`).toBeLessThanOrEqual(unseen);
    repeated2xx += succeeded - 1;
  }
  return repeated2xx;
}

/** Every terminal state counted once in the app's usage. */
async function expectUsageCountedOnce(app: App, finals: VerificationItem[]): Promise<void> {
  const usage: Record<string, number> = {};
  for (const row of (await api.scan(api.tables.usage)).filter((item) => item.pk === `APP#${app.app_id}`)) {
    for (const outcome of USAGE_OUTCOMES) {
      if (typeof row[outcome] === "number") usage[outcome] = (usage[outcome] ?? 0) + (row[outcome] as number);
    }
  }
  expect(usage).toEqual(countBy(finals.map((item) => usageOutcome(item) ?? "none")));
}

/** Every reviewer decision: one audit record, and the chain holds. */
async function expectDecisionsAuditedOnce(finals: VerificationItem[], staff: Reviewer[]) {
  const audit = (await api.scan(api.tables.audit)).filter((item) => typeof item.action === "string");
  const decisions = audit.filter((record) => record.action === "review.decided");
  const reviewedIds = finals.filter((item) => item.decided_by !== undefined).map((item) => item.verification_id);
  expect(reviewedIds.length).toBeGreaterThan(0);
  expect(decisions.map((record) => record.verification_id).sort()).toEqual(reviewedIds.sort());
  expect(reviewedIds.sort()).toEqual(staff.flatMap((person) => [...person.decided]).sort());
  const actions = audit.map((record) => `${record.action} ${record.request_id}`);
  expect(new Set(actions).size, "an action recorded twice").toBe(actions.length);
  // Sealed as the sealer would seal them once they can have landed, and then checked.
  const sealedAt = new FixedClock(isoSeconds(new Date(Date.now() + SEAL_MARGIN_MS + 1000)));
  const trail = auditIn(dynamo, api.tables.audit);
  const kms = new KMSClient({
    endpoint: process.env.KMS_ENDPOINT,
    region: LOCAL_REGION,
    credentials: inject("engines").credentials,
  });
  const sealing = sealingIn(dynamo, kms, api.tables.auditDigests, String(process.env.AUDIT_SEALING_KEY_ID));
  await sealAudit({ prints: trail, ...sealing, clock: sealedAt });
  const chain = await verifyAuditTrail({ prints: trail, strays: trail, ...sealing, clock: sealedAt }, {});
  kms.destroy();
  expect(chain.findings).toEqual([]);
  return { audit, decisions, chain };
}

/** What the run met, in numbers, on the console. */
function logSummary(run: {
  client: ContractClient;
  staff: Reviewer[];
  finals: VerificationItem[];
  events: EventItem[];
  attempts: AttemptItem[];
  ticks: (number | "failed")[];
  repeated2xx: number;
  audited: Awaited<ReturnType<typeof expectDecisionsAuditedOnce>>;
  seconds: { customer: number; settled: number; delivered: number };
}): void {
  const { client, staff, finals, events, attempts, ticks, repeated2xx } = run;
  const { audit, decisions, chain } = run.audited;
  const { customer: customerSeconds, settled: settledSeconds, delivered: deliveredSeconds } = run.seconds;
  const dynamoCounts = dynamoProxy.counts();
  const lost = lostReplies.counts();
  const s3Counts = s3Proxy.counts();
  const issuerCounts = issuer.counts();
  const crashes = flow.counts();
  const sum = (of: (person: Reviewer) => number) => staff.reduce((total, person) => total + of(person), 0);
  const answers = countBy(receiver.deliveries.map((delivery) => String(delivery.answer)));
  console.log(
    [
      `resilience/flow-faults (${FULL ? "full" : "short"}): seed ${SEED}, ${PROFILE.verifications} verifications`,
      `  customer: ${client.stats.requests} requests, ${client.stats.retries} retries, statuses ${JSON.stringify(client.stats.statuses)}, all confirmed in ${customerSeconds.toFixed(1)} s`,
      `  final states: ${JSON.stringify(countBy(finals.map((f) => `${f.status}/${f.result ?? "-"}/${f.reasons?.[0]?.code ?? "-"}`)))}, all terminal at ${settledSeconds.toFixed(1)} s`,
      `  DynamoDB: ${dynamoCounts.requests} requests, ${dynamoCounts.throttle} throttled, ${dynamoCounts.error} 500s, ${dynamoCounts.drop} dropped; ${lost.lost} of ${lost.writes} writes applied but answered 500`,
      `  S3: ${s3Counts.requests} requests, ${s3Counts.throttle} SlowDown, ${s3Counts.error} 500s, ${s3Counts.drop} dropped`,
      `  e-Devlet: ${issuerCounts.lookups} lookups, ${issuerCounts.busy} busy, ${issuerCounts.timeout} timed out`,
      `  crashes: stream consumer ${crashes.consumerCrashes} of ${crashes.consumerInvocations} invocations, delivery reader ${crashes.readerCrashes} of ${crashes.readerInvocations}; ${crashes.recordsSeenAgain} stream records handed over again`,
      `  reviewers: ${staff.map((person) => person.decided.size).join("+")} decided, ${sum((person) => person.stats.claims)} claims, ${sum((person) => person.stats.requests)} requests, ${sum((person) => person.stats.retries)} retries; audit ${audit.length} records, ${decisions.length} decisions, sealed ${chain.months.map((m) => `${m.month}: ${m.sealed}`).join(", ")}, holds`,
      `  webhooks: ${events.length} events, ${receiver.deliveries.length} deliveries (${JSON.stringify(answers)}), ${attempts.length} attempts recorded, ${ticks.join("+")} by the tick, ${repeated2xx} repeated 2xx; every event delivered by ${deliveredSeconds.toFixed(1)} s`,
    ].join("\n"),
  );
}

describe("the whole flow under injected faults", () => {
  it("finishes every verification once, delivers every event, and audits every decision once", async () => {
    const started = performance.now();
    dynamoProxy.chaos({ seed: SEED, rates: PROFILE.store });
    s3Proxy.chaos({ seed: SEED + 1, rates: PROFILE.store });
    const app = await api.newApp("sandbox", receiver.url);
    receiver.secret = app.webhook_secret;
    const client = new ContractClient(api.baseUrl, app.api_key, 20);
    const ours = new Set<string>();
    const staff = reviewers.map((user, r) => new Reviewer(user, ours, r === 0 ? "oldest" : "newest"));
    const reviewing = startReviewing(staff);

    // Customers: create, upload, confirm.
    const confirmed = await customersConfirm(client, ours);
    const customerSeconds = (performance.now() - started) / 1000;

    // Every verification reaches a terminal state under the faults, the reviewer deciding what waits.
    const finals = await allTerminal(ours, reviewing);
    const settledSeconds = (performance.now() - started) / 1000;
    await flow.pipeline.drain();
    await waitFor(
      () => "the hung deliveries ending",
      30_000,
      async () => (receiver.hanging() === 0 ? true : undefined),
    );

    const ticks = await retriesByTheTick(app);
    dynamoProxy.calm();
    lostReplies.calm();
    s3Proxy.calm();
    issuer.calm();
    flow.calm();
    const deliveredSeconds = (performance.now() - started) / 1000;

    const events = await eventsOf(app);
    const attempts = (await api.scan(api.tables.events)).filter(
      (item) => item.sk !== "EVENT" && events.some((event) => event.event_id === item.event_id),
    ) as unknown as AttemptItem[];

    expectTerminalOnce(finals, confirmed, events);
    const repeated2xx = expectDeliveredOnce(events, attempts);
    await expectUsageCountedOnce(app, finals);
    const audited = await expectDecisionsAuditedOnce(finals, staff);
    expect(unexpected).toEqual([]);

    logSummary({
      client,
      staff,
      finals,
      events,
      attempts,
      ticks,
      repeated2xx,
      audited,
      seconds: { customer: customerSeconds, settled: settledSeconds, delivered: deliveredSeconds },
    });
  }, 600_000);
});
