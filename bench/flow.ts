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

export async function runFlow(
  api: BenchApi,
  pipeline: Pipeline,
  options: {
    protocol: EdevletProtocol;
    sent: FlowSent;
    durationSeconds: number;
    ratePerSecond: number;
    eventTimeoutMs: number;
    issuerLatencyMs: number;
  },
): Promise<FlowResult> {
  const certificate = new Uint8Array(await readFile(CERTIFICATE));
  const body = options.sent === "keys" ? keysBody("flow") : createBody("flow", certificate.length);
  const throttle = { stage: STAGE_THROTTLING.production, app: APP_THROTTLING.production };
  const baseUrl = await api.throttledGateway(throttle);
  const endpoint = await webhookEndpoint();
  try {
    const app = await api.newApp(endpoint.url);
    endpoint.verifyWith(app.webhook_secret);
    const customer = new BenchCustomer(overHttp(baseUrl), app.api_key);

    const times = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
    const statuses: Record<string, Record<string, number>> = {};
    let unexpected = 0;
    const tally = (step: string, outcome: string | number, expected: boolean) => {
      const counts = statuses[step] ?? {};
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      statuses[step] = counts;
      if (!expected) unexpected++;
    };
    const timed = async <T>(step: Step, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const value = await work();
      times[step].push(performance.now() - started);
      return value;
    };
    const eventAt = async (id: string, type: string, after: number): Promise<number | undefined> => {
      const at = await endpoint.arrival(id, type, options.eventTimeoutMs);
      return at === undefined ? undefined : at - after;
    };

    const ids: string[] = [];
    const decisions = new Map<string, number>();
    let finished = 0;
    const one = async (): Promise<void> => {
      const created: Reply = await timed("create", () => customer.create(undefined, body));
      tally("create", created.status, created.status === 201);
      if (created.status !== 201) return;
      const resource = created.json as Parameters<typeof upload>[0];
      ids.push(resource.verification_id);
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
      decisions.set(resource.verification_id, decision);
      const fetched = await timed("fetch", () => customer.get(resource.verification_id));
      const state = fetched.json as { status?: string; result?: string } | undefined;
      const outcome = `${fetched.status} ${state?.status}/${state?.result}`;
      tally("fetch", outcome, outcome === "200 completed/verified");
      finished++;
    };

    // One flow first warms every function on the path; it is not counted.
    await one();
    for (const step of STEPS) times[step].length = 0;
    for (const key of Object.keys(statuses)) delete statuses[key];
    ids.length = 0;
    decisions.clear();
    api.issuerTimes.clear();
    finished = 0;
    unexpected = 0;
    endpoint.deliveries.length = 0;

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
    // Anything sent twice arrives within moments of the first; the queue is drained first.
    await pipeline.drain();

    const seen = new Set<string>();
    let duplicates = 0;
    for (const delivery of endpoint.deliveries) {
      if (seen.has(delivery.eventId)) duplicates++;
      seen.add(delivery.eventId);
    }
    const received = new Set(endpoint.deliveries.map((each) => `${each.verificationId} ${each.type}`));
    const lost = ids.flatMap((id) => EXPECTED_EVENTS.filter((type) => !received.has(`${id} ${type}`))).length;
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const split = [...decisions].map(([id, decided]) => {
      const times = api.issuerTimes.get(id) ?? { waited: [], asked: [] };
      return { decided, queued: sum(times.waited), asked: sum(times.asked), lookups: times.asked.length };
    });
    const percentilesOf = (values: number[]) =>
      values.length > 0 ? percentiles(values) : { n: 0, p50: 0, p95: 0, p99: 0 };
    return {
      protocol: options.protocol,
      sent: options.sent,
      durationSeconds: options.durationSeconds,
      ratePerSecond: options.ratePerSecond,
      throttle,
      started: flows.length,
      finished,
      steps: Object.fromEntries(
        STEPS.map((step) => [
          step,
          times[step].length > 0 ? percentiles(times[step]) : { n: 0, p50: 0, p95: 0, p99: 0 },
        ]),
      ) as Record<Step, Percentiles>,
      lost,
      duplicates,
      unsigned: endpoint.deliveries.filter((each) => !each.signed).length,
      unexpected,
      statuses,
      issuer: {
        latencyMs: options.issuerLatencyMs,
        queued: percentilesOf(split.map((one) => one.queued)),
        asked: percentilesOf(split.map((one) => one.asked)),
        beyond: percentilesOf(split.map((one) => one.decided - one.queued - one.asked)),
        share: sum(split.map((one) => one.queued + one.asked)) / Math.max(1, sum(split.map((one) => one.decided))),
        lookupsPerVerification: sum(split.map((one) => one.lookups)) / Math.max(1, split.length),
        mostLookups: Math.max(0, ...split.map((one) => one.lookups)),
      },
    };
  } finally {
    await endpoint.stop();
  }
}
