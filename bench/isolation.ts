/**
 * Webhook isolation: one app's confirm-to-webhook latency (from its confirm's answer to its
 * endpoint receiving the final state's event) while another app's endpoint takes 15 s to
 * answer every delivery, against the same latency with no slow endpoint, in blocks that
 * alternate within one run. The whole path runs: the change stream, the consumer, the
 * delivery queue and its reader, the signed POST (the caller runs the pipeline meanwhile).
 */
import { BenchCustomer, overHttp } from "./customer.ts";
import type { BenchApi } from "./local-api.ts";
import { percentile } from "./stats.ts";
import { webhookEndpoint } from "./webhook-endpoint.ts";

export interface IsolationResult {
  slowAnswerMs: number;
  /** The slow app's verifications whose deliveries were held while each contended block ran. */
  slowVerificationsPerBlock: number;
  samplesPerSide: number;
  baseline: { p50: number; p95: number };
  contended: { p50: number; p95: number };
  /** The slow app's deliveries in flight (received, not yet answered) when contended samples ran, at the fewest. */
  slowInFlightAtLeast: number;
}

/** Creates, uploads and confirms one verification; its id and when the confirm answered. */
async function confirmOne(customer: BenchCustomer): Promise<{ id: string; confirmedAt: number }> {
  const resource = await customer.uploaded();
  const confirmed = await customer.confirm(resource.verification_id);
  if (confirmed.status !== 200) throw new Error(`confirm answered ${confirmed.status}`);
  return { id: resource.verification_id, confirmedAt: performance.now() };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("isolation: a webhook did not arrive in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function measureIsolation(
  api: BenchApi,
  options: { samplesPerSide: number; blocks: number; slowAnswerMs: number; slowVerificationsPerBlock: number },
): Promise<IsolationResult> {
  const fast = await webhookEndpoint();
  const slow = await webhookEndpoint(options.slowAnswerMs);
  try {
    const measured = new BenchCustomer(overHttp(api.baseUrl), (await api.newApp(fast.url)).api_key);
    const slowApp = new BenchCustomer(overHttp(api.baseUrl), (await api.newApp(slow.url)).api_key);

    const sample = async () => {
      const { id, confirmedAt } = await confirmOne(measured);
      await waitFor(() => fast.finals.has(id), 20_000);
      return (fast.finals.get(id) as number) - confirmedAt;
    };
    // One verification warms every function on the path first.
    await sample();

    const baseline: number[] = [];
    const contended: number[] = [];
    let slowInFlightAtLeast = Number.POSITIVE_INFINITY;
    const perBlock = Math.ceil(options.samplesPerSide / options.blocks);
    for (let block = 0; block < options.blocks; block += 1) {
      // No slow delivery in flight: the previous contended block's have all been answered.
      await waitFor(() => slow.inFlight() === 0, options.slowAnswerMs + 20_000);
      for (let i = 0; i < perBlock; i += 1) baseline.push(await sample());

      // The slow app's verifications, checked, with both events of each waiting on its endpoint's answers.
      for (let i = 0; i < options.slowVerificationsPerBlock; i += 1) await confirmOne(slowApp);
      await waitFor(() => slow.inFlight() >= 2 * options.slowVerificationsPerBlock, 20_000);
      for (let i = 0; i < perBlock; i += 1) {
        slowInFlightAtLeast = Math.min(slowInFlightAtLeast, slow.inFlight());
        contended.push(await sample());
      }
    }
    const summary = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
    return {
      slowAnswerMs: options.slowAnswerMs,
      slowVerificationsPerBlock: options.slowVerificationsPerBlock,
      samplesPerSide: baseline.length,
      baseline: summary(baseline),
      contended: summary(contended),
      slowInFlightAtLeast,
    };
  } finally {
    await fast.stop();
    await slow.stop();
  }
}
