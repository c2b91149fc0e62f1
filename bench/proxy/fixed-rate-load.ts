/**
 * An open-loop load at a fixed rate: requests leave on a schedule, whatever the answers do (a slow
 * answer never delays the next request, so queueing shows in the latencies, as a client population
 * sees it). Each latency is measured in microseconds on the monotonic clock. The client reads its
 * keep-alive connections into one buffer and parses no more than where each answer ends
 * (raw-get-client.ts): on two cores the load generator's own CPU and its garbage collection are part
 * of every latency it measures.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createRawGetClient } from './raw-get-client.js';

export interface FixedRateRun {
  url: string;
  rate: number;
  seconds: number;
  latenciesMs: number[];
  /** Answers that were not 200 (a run with any is worthless). */
  failures: number;
  /** What each failure was: `status 502`, or the error's code (`ECONNRESET`). */
  failureKinds: string[];
}

/** `GET origin+path` at `rate` per second for `seconds`, with `headers`. */
export async function runFixedRate(
  origin: string,
  path: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<FixedRateRun> {
  const client = createRawGetClient(origin, path, headers, 32);
  const latenciesMs: number[] = [];
  const failureKinds: string[] = [];
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < total; index++) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const sent = performance.now();
    inFlight.push(
      client.get().then(
        (status) => {
          latenciesMs.push(performance.now() - sent);
          if (status !== 200) failureKinds.push(`status ${status}`);
        },
        (error: NodeJS.ErrnoException) => {
          failureKinds.push(error.code ?? error.message);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  client.close();
  return {
    url: `${origin}${path}`,
    rate,
    seconds,
    latenciesMs,
    failures: failureKinds.length,
    failureKinds,
  };
}

/** The `q` quantile (0..1) of the latencies, by the nearest rank. */
export function quantile(latenciesMs: readonly number[], q: number): number {
  if (latenciesMs.length === 0) return Number.NaN;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
