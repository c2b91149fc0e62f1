/**
 * An open-loop load at a fixed rate: requests leave on a schedule, whatever the answers do (a slow
 * answer never delays the next request, so queueing shows in the latencies, as a client population
 * sees it). Each latency is measured in microseconds on the monotonic clock. The client is node:http
 * with keep-alive connections: its native parser costs the machine less per answer than a parser in
 * WebAssembly, and on two cores the load generator's own CPU is part of every latency it measures.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

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

/** One GET, resolved with its status once the whole body was read. */
function get(agent: Agent, origin: URL, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { agent, host: origin.hostname, port: origin.port, method: 'GET', path, headers },
      (answer) => {
        answer.on('data', () => undefined);
        answer.once('end', () => resolve(answer.statusCode ?? 0));
        answer.once('error', reject);
      },
    );
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** `GET origin+path` at `rate` per second for `seconds`, with `headers`. */
export async function runFixedRate(
  origin: string,
  path: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<FixedRateRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const target = new URL(origin);
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
      get(agent, target, path, headers).then(
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
  agent.destroy();
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
