/**
 * The whole flow under load: for a fixed time, a new verification starts at a fixed rate
 * whether or not the earlier ones have finished, each one created, its real certificate
 * uploaded and confirmed, checked by the processing pipeline against the e-Devlet simulator
 * (answering as slowly as e-Devlet does), and its decision received by the app's webhook
 * endpoint (signature verified) and then fetched. The time the decision waited on the issuer
 * (its checks queued for a free reader, and the lookup itself) is measured per verification,
 * and so what the flow adds beyond it.
 * The gateway holds the stage and the app to the production rates. Every event is counted: one
 * of each per verification, none missing, none twice. By barcode alone (`sent: "keys"`), each
 * verification is created with the certificate's keys instead, nothing uploaded, and its events
 * are timed from the create's answer.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { APP_THROTTLING, STAGE_THROTTLING } from "#shared/declarations/routes";
import type { EdevletProtocol } from "#shared/domain/issuer";
import type { Pipeline } from "../local/pipeline.ts";
import { CATALOGUE } from "../scripts/test-documents/catalogue.ts";
import { BenchCustomer, createBody, overHttp, type Reply, upload } from "./customer.ts";
import type { BenchApi } from "./local-api.ts";
import { type Percentiles, percentiles } from "./stats.ts";
import { webhookEndpoint } from "./webhook-endpoint.ts";

/** A certificate every check passes: it ends `completed`, `verified`. */
export const CERTIFICATE = path.resolve(__dirname, "../docs/test-documents/yok-active.pdf");

const STEPS = ["create", "upload", "confirm", "processing event", "decision event", "fetch"] as const;
type Step = (typeof STEPS)[number];

/** The events one verification's flow sends, each exactly once. */
const EXPECTED_EVENTS = ["verification.processing", "verification.completed"];

/** What each verification sends: the certificate's file, or its barcode and identity number alone. */
export type FlowSent = "upload" | "keys";

/** The create of a verification by the certificate's keys alone. */
function keysBody(reference: string): string {
  const entry = CATALOGUE.find((candidate) => candidate.file === "yok-active.pdf" && candidate.upload.kind === "pdf");
  if (!entry?.upload.spec.barcode) throw new Error("The catalogue has no yok-active.pdf with a barcode");
  const { barcode, identityNumber } = entry.upload.spec;
  return JSON.stringify({
    document_type: "YOK_STUDENT",
    external_reference_id: reference,
    document_keys: { barcode, identity_number: identityNumber },
  });
}

export interface FlowResult {
  /** e-Devlet's way in the checks asked by. */
  protocol: EdevletProtocol;
  sent: FlowSent;
  durationSeconds: number;
  ratePerSecond: number;
  throttle: { stage: { rateLimit: number; burstLimit: number }; app: { rateLimit: number; burstLimit: number } };
  /** Verifications started, and those whose flow ran to its fetch. */
  started: number;
  finished: number;
  /** Milliseconds per step; the two events from the confirm's answer to the endpoint receiving them. */
  steps: Record<Step, Percentiles>;
  /** Expected events that never arrived (waited for up to the flow's timeout after the last start). */
  lost: number;
  /** Deliveries of an event already received (the same `webhook-id`). */
  duplicates: number;
  /** Deliveries whose signature did not verify with the app's secret. */
  unsigned: number;
  /** Responses other than what each step expects (201, 200, 200, and the fetch `completed`/`verified`). */
  unexpected: number;
  statuses: Record<string, Record<string, number>>;
  /** The simulator's wait before each answer, and how the decision event's time divides (ms, per verification). */
  issuer: {
    latencyMs: number;
    /** The checks' wait in the issuer queue for a free reader (at most the stage's concurrency ask at once). */
    queued: Percentiles;
    /** The lookups themselves, every step of the form. */
    asked: Percentiles;
    /** The decision event's time beyond both: the stream, the checks, the writes and the webhook. */
    beyond: Percentiles;
    /** The share of the decision events' total time spent waiting on the issuer (queue and lookups). */
    share: number;
    /** Lookups made per verification, and the most any one verification needed. */
    lookupsPerVerification: number;
    mostLookups: number;
  };
}

interface FlowOptions {
  protocol: EdevletProtocol;
  sent: FlowSent;
  durationSeconds: number;
  ratePerSecond: number;
  eventTimeoutMs: number;
  issuerLatencyMs: number;
}

type Endpoint = Awaited<ReturnType<typeof webhookEndpoint>>;

export async function runFlow(api: BenchApi, pipeline: Pipeline, options: FlowOptions): Promise<FlowResult> {
  const certificate = new Uint8Array(await readFile(CERTIFICATE));
  const body = options.sent === "keys" ? keysBody("flow") : createBody("flow", certificate.length);
  const throttle = { stage: STAGE_THROTTLING.production, app: APP_THROTTLING.production };
  const baseUrl = await api.throttledGateway(throttle);
  const endpoint = await webhookEndpoint();
  try {
    const app = await api.newApp(endpoint.url);
    endpoint.verifyWith(app.webhook_secret);
    const customer = new BenchCustomer(overHttp(baseUrl), app.api_key);
    const record = flowRecord();
    const one = () => oneFlow({ customer, endpoint, record, options, body, certificate });

    // One flow first warms every function on the path; it is not counted.
    await one();
    record.clear();
    api.issuerTimes.clear();
    endpoint.deliveries.length = 0;

    const started = await startAtRate(one, options);
    // Anything sent twice arrives within moments of the first; the queue is drained first.
    await pipeline.drain();
    return {
      protocol: options.protocol,
      sent: options.sent,
      durationSeconds: options.durationSeconds,
      ratePerSecond: options.ratePerSecond,
      throttle,
      started,
      finished: record.finished,
      steps: Object.fromEntries(
        STEPS.map((step) => [
          step,
          record.times[step].length > 0 ? percentiles(record.times[step]) : { n: 0, p50: 0, p95: 0, p99: 0 },
        ]),
      ) as Record<Step, Percentiles>,
      ...deliveryCounts(endpoint, record.ids),
      unexpected: record.unexpected,
      statuses: record.statuses,
      issuer: issuerShare(api, record.decisions, options.issuerLatencyMs),
    };
  } finally {
    await endpoint.stop();
  }
}

type FlowRecord = ReturnType<typeof flowRecord>;

/** What the flows record: each step's times, the answers per step, the ids created and the decisions' times. */
function flowRecord() {
  const record = {
    times: Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>,
    statuses: {} as Record<string, Record<string, number>>,
    unexpected: 0,
    ids: [] as string[],
    decisions: new Map<string, number>(),
    finished: 0,
    tally(step: string, outcome: string | number, expected: boolean) {
      const counts = record.statuses[step] ?? {};
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      record.statuses[step] = counts;
      if (!expected) record.unexpected++;
    },
    async timed<T>(step: Step, work: () => Promise<T>): Promise<T> {
      const started = performance.now();
      const value = await work();
      record.times[step].push(performance.now() - started);
      return value;
    },
    /** Forgets everything recorded so far. */
    clear() {
      for (const step of STEPS) record.times[step].length = 0;
      for (const key of Object.keys(record.statuses)) delete record.statuses[key];
      record.ids.length = 0;
      record.decisions.clear();
      record.finished = 0;
      record.unexpected = 0;
    },
  };
  return record;
}

/** One verification's flow: created (and uploaded and confirmed), its two events awaited, then fetched. */
async function oneFlow({
  customer,
  endpoint,
  record,
  options,
  body,
  certificate,
}: {
  customer: BenchCustomer;
  endpoint: Endpoint;
  record: FlowRecord;
  options: FlowOptions;
  body: string;
  certificate: Uint8Array;
}): Promise<void> {
  const { tally, timed, times } = record;
  const eventAt = async (id: string, type: string, after: number): Promise<number | undefined> => {
    const at = await endpoint.arrival(id, type, options.eventTimeoutMs);
    return at === undefined ? undefined : at - after;
  };
  const created: Reply = await timed("create", () => customer.create(undefined, body));
  tally("create", created.status, created.status === 201);
  if (created.status !== 201) return;
  const resource = created.json as Parameters<typeof upload>[0];
  record.ids.push(resource.verification_id);
  if (options.sent === "upload") {
    const put = await timed("upload", () => upload(resource, certificate));
    tally("upload", put, put === 200);
    if (put !== 200) return;
    const confirmed = await timed("confirm", () => customer.confirm(resource.verification_id));
    tally("confirm", confirmed.status, confirmed.status === 200);
    if (confirmed.status !== 200) return;
  }
  // The events from the answer that started the checks: the confirm's, or the create's when nothing is uploaded.
  const answeredAt = performance.now();
  const [processing, decision] = await Promise.all(
    EXPECTED_EVENTS.map((type) => eventAt(resource.verification_id, type, answeredAt)),
  );
  if (processing !== undefined) times["processing event"].push(processing);
  if (decision === undefined) return;
  times["decision event"].push(decision);
  record.decisions.set(resource.verification_id, decision);
  const fetched = await timed("fetch", () => customer.get(resource.verification_id));
  const state = fetched.json as { status?: string; result?: string } | undefined;
  const outcome = `${fetched.status} ${state?.status}/${state?.result}`;
  tally("fetch", outcome, outcome === "200 completed/verified");
  record.finished++;
}

/** Starts `one` at the options' rate, whether or not the earlier ones have finished, for their duration; answers how many started, once all have ended. */
async function startAtRate(one: () => Promise<void>, options: FlowOptions): Promise<number> {
  const flows: Promise<void>[] = [];
  const interval = 1000 / options.ratePerSecond;
  const startedAt = performance.now();
  for (let n = 0; performance.now() - startedAt < options.durationSeconds * 1000; n++) {
    const due = startedAt + n * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    flows.push(one());
  }
  await Promise.all(flows);
  return flows.length;
}

/** The events lost, delivered twice and unsigned, of the verifications `ids`. */
function deliveryCounts(endpoint: Endpoint, ids: string[]): Pick<FlowResult, "lost" | "duplicates" | "unsigned"> {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const delivery of endpoint.deliveries) {
    if (seen.has(delivery.eventId)) duplicates++;
    seen.add(delivery.eventId);
  }
  const received = new Set(endpoint.deliveries.map((each) => `${each.verificationId} ${each.type}`));
  const lost = ids.flatMap((id) => EXPECTED_EVENTS.filter((type) => !received.has(`${id} ${type}`))).length;
  return { lost, duplicates, unsigned: endpoint.deliveries.filter((each) => !each.signed).length };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** How each decision's time divides between the issuer queue, the lookups and the rest. */
function issuerShare(api: BenchApi, decisions: Map<string, number>, latencyMs: number): FlowResult["issuer"] {
  const split = [...decisions].map(([id, decided]) => {
    const times = api.issuerTimes.get(id) ?? { waited: [], asked: [] };
    return { decided, queued: sum(times.waited), asked: sum(times.asked), lookups: times.asked.length };
  });
  const percentilesOf = (values: number[]) =>
    values.length > 0 ? percentiles(values) : { n: 0, p50: 0, p95: 0, p99: 0 };
  return {
    latencyMs,
    queued: percentilesOf(split.map((one) => one.queued)),
    asked: percentilesOf(split.map((one) => one.asked)),
    beyond: percentilesOf(split.map((one) => one.decided - one.queued - one.asked)),
    share: sum(split.map((one) => one.queued + one.asked)) / Math.max(1, sum(split.map((one) => one.decided))),
    lookupsPerVerification: sum(split.map((one) => one.lookups)) / Math.max(1, split.length),
    mostLookups: Math.max(0, ...split.map((one) => one.lookups)),
  };
}
