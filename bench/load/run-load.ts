/** One bounded autocannon run of one scenario against one server, and a single probe request. */
import autocannon from 'autocannon';
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

export async function runLoad(
  baseUrl: string,
  scenario: LoadRequest,
  settings: LoadSettings,
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${baseUrl}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    connections: settings.connections,
    duration: settings.durationSeconds,
    timeout: 10,
    warmup: { connections: settings.connections, duration: settings.warmupSeconds },
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = Number(count);
  return {
    requestsPerSecond: result.requests.average,
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
