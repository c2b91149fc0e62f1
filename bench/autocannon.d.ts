/** The part of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  interface Options {
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    warmup?: { connections?: number; duration?: number };
    /** Resolve with the RawResult (encoded histograms) for `aggregateResult` to merge. */
    skipAggregateResult?: boolean;
  }

  /** What a run resolves with under `skipAggregateResult`: counts and base64-encoded HDR histograms. */
  interface RawResult {
    latencies: string;
    requests: string;
    throughput: string;
    totalCompletedRequests: number;
    totalRequests: number;
    totalBytes: number;
    /** One-second samples taken. */
    samples: number;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  namespace autocannon {
    /**
     * Merges runs' latency histograms and counts. Its `requests` histogram is empty (autocannon keeps
     * per-second samples only in the process that ran them), so throughput is summed by the caller.
     */
    function aggregateResult(results: RawResult[], options?: Partial<Options>): Result;
  }
  export default autocannon;
  export type { Options, RawResult, Result };
}
