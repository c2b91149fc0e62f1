/**
 * An open-loop load at a fixed rate: requests leave on a schedule, whatever the answers do (a slow
 * answer never delays the next request, so queueing shows in the latencies, as a client population
 * sees it). Each latency is measured in microseconds on the monotonic clock.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface FixedRateRun {
  url: string;
  rate: number;
  seconds: number;
  latenciesMs: number[];
  /** Answers that were not 200 (a run with any is worthless). */
  failures: number;
}

/** `GET origin+path` at `rate` per second for `seconds`, with `headers`. */
export async function runFixedRate(
  origin: string,
  path: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<FixedRateRun> {
  const pool = new Pool(origin, { connections: 32, pipelining: 1 });
  const latenciesMs: number[] = [];
  let failures = 0;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < total; index++) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const sent = performance.now();
    inFlight.push(
      pool.request({ method: 'GET', path, headers }).then(
        async (answer) => {
          await answer.body.dump({ limit: Number.POSITIVE_INFINITY });
          latenciesMs.push(performance.now() - sent);
          if (answer.statusCode !== 200) failures += 1;
        },
        () => {
          failures += 1;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  await pool.close();
  return { url: `${origin}${path}`, rate, seconds, latenciesMs, failures };
}

/** The `q` quantile (0..1) of the latencies, by the nearest rank. */
export function quantile(latenciesMs: readonly number[], q: number): number {
  if (latenciesMs.length === 0) return Number.NaN;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
