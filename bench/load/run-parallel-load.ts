/**
 * One scenario on several replicas at once: one autocannon instance per replica, started together,
 * each with its share of the connections. Throughput is the sum of the instances'; latency comes from
 * the instances' histograms merged (autocannon's `aggregateResult`), so p50/p99 are those of every
 * request, not the worse of two.
 */
import autocannon, { type RawResult } from 'autocannon';
import {
  autocannonOptions,
  type LoadRequest,
  type LoadResult,
  type LoadSettings,
  loadResultOf,
} from './run-load.js';

/** `connections` spread over `replicas` (the first ones take the remainder). */
export function splitConnections(connections: number, replicas: number): number[] {
  if (replicas < 1 || connections < replicas)
    throw new Error(`cannot spread ${connections} connections over ${replicas} replicas`);
  const share = Math.floor(connections / replicas);
  return Array.from({ length: replicas }, (_, i) => share + (i < connections % replicas ? 1 : 0));
}

/**
 * Mean of one instance's per-second samples, as `requests.average` is for a single run: a raw result
 * holds the count and the number of one-second samples, and their quotient is that mean.
 */
export function requestsPerSecondOf(raw: Pick<RawResult, 'totalCompletedRequests' | 'samples'>): number {
  return raw.samples > 0 ? raw.totalCompletedRequests / raw.samples : 0;
}

export async function runParallelLoad(
  baseUrls: readonly string[],
  scenario: LoadRequest,
  settings: LoadSettings,
): Promise<LoadResult> {
  const shares = splitConnections(settings.connections, baseUrls.length);
  const raws = await Promise.all(
    baseUrls.map(
      (url, i) =>
        autocannon({
          ...autocannonOptions(url, scenario, settings, shares[i]),
          skipAggregateResult: true,
        }) as unknown as Promise<RawResult>,
    ),
  );
  const merged = autocannon.aggregateResult(raws, {
    url: `${baseUrls[0]}${scenario.path}`,
    connections: settings.connections,
  });
  const summed = raws.reduce((sum, raw) => sum + requestsPerSecondOf(raw), 0);
  return loadResultOf(merged, summed);
}
