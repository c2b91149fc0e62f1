/** One bounded autocannon run of one scenario against one server, and a single probe request. */
import autocannon, { type Options, type Result } from 'autocannon';
import type { Scenario } from './scenarios.js';

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second samples. */
  requestsPerSecond: number;
  /** Latencies in ms (autocannon's histogram has 1 ms resolution); 2xx answers only. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyAvgMs: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  durationSeconds: number;
}

export interface Probe {
  status: number;
  bytes: number;
  body: string;
}

/** What a run sends: a scenario, or any other request (the memory stage's samples). */
export type LoadRequest = Pick<Scenario, 'method' | 'path' | 'headers' | 'body'>;

/** autocannon's options for one run of `scenario` on `baseUrl` with `connections` connections. */
export function autocannonOptions(
  baseUrl: string,
  scenario: LoadRequest,
  settings: LoadSettings,
  connections = settings.connections,
): Options {
  return {
    url: `${baseUrl}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    connections,
    duration: settings.durationSeconds,
    timeout: 10,
    // No warm-up option at all for 0 s: autocannon treats any warmup object as a run to make.
    ...(settings.warmupSeconds > 0 && { warmup: { connections, duration: settings.warmupSeconds } }),
  };
}

/** Our figures from autocannon's result; `requestsPerSecond` is given when the result cannot tell it. */
export function loadResultOf(result: Result, requestsPerSecond = result.requests.average): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = Number(count);
  return {
    requestsPerSecond,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyAvgMs: result.latency.average,
    latencyMaxMs: result.latency.max,
    requests: Object.values(statusCodes).reduce((sum, count) => sum + count, 0),
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: result.duration,
  };
}

export async function runLoad(
  baseUrl: string,
  scenario: LoadRequest,
  settings: LoadSettings,
): Promise<LoadResult> {
  return loadResultOf(await autocannon(autocannonOptions(baseUrl, scenario, settings)));
}

/** One request, to check the status and learn the body's size before loading a server. */
export async function probe(baseUrl: string, scenario: LoadRequest): Promise<Probe> {
  const response = await fetch(`${baseUrl}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, bytes: bytes.length, body: bytes.toString('utf8') };
}
