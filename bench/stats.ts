/** Order statistics over samples in milliseconds. */

export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The nearest-rank percentile `p` (0 to 100) of `samples`. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("No samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function percentiles(samples: readonly number[]): Percentiles {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
  };
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Milliseconds `work` takes, measured with the monotonic clock. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
