/** The part of autocannon 8's programmatic API the load benchmark uses. */
declare module "autocannon" {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface RequestStep extends Request {
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  }

  interface Histogram {
    average: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
    p97_5: number;
  }

  interface Result {
    duration: number;
    connections: number;
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: RequestStep[];
  }

  export default function autocannon(options: Options): Promise<Result> & { stop(): void };
}
