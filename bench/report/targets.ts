/**
 * The benchmark's targets, computed from the runs: on GET of a 100-record page, the simulator on its
 * memory store makes at least 5x Prism's throughput, at least half of bare node:http's, and p99 under
 * 10 ms at 20 connections. The Redis servers get the same ratios, reported and not gated (a networked store is a different trade).
 */
import type { LoadResult } from '../load/run-load.js';
import { type ScenarioId, TARGET_SCENARIO } from '../load/scenarios.js';

/**
 * `simulator` is the memory store; `simulator-redis` one child on a RedisStore; `simulator-redis-x2`
 * two children on that Redis, loaded at once (one row: summed req/s, merged latencies).
 */
export const SERVER_NAMES = ['simulator', 'simulator-redis', 'simulator-redis-x2', 'prism', 'bare'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface RunRow {
  server: ServerName;
  scenario: ScenarioId;
  /** Body size of the server's answer to the probe request. */
  bodyBytes: number;
  load: LoadResult;
}

/** One server's throughput over the two baselines in one scenario. */
export interface Comparison {
  scenario: ScenarioId;
  server: ServerName;
  /** Throughput server / prism (null when a side is missing or zero). */
  overPrism: number | null;
  overBare: number | null;
}

export interface TargetCheck {
  id: 'throughput-over-prism' | 'throughput-over-bare' | 'p99';
  description: string;
  value: number | null;
  target: number;
  met: boolean;
}

export const TARGETS = { overPrism: 5, overBare: 0.5, p99Ms: 10 } as const;
/** A run where more than this share of answers are not 2xx measures error handling, not the scenario. */
export const MAX_ERROR_SHARE = 0.5;

export function ratio(numerator: number | undefined, denominator: number | undefined): number | null {
  if (numerator === undefined || denominator === undefined || denominator <= 0) return null;
  return numerator / denominator;
}

function rowOf(rows: readonly RunRow[], server: ServerName, scenario: ScenarioId): RunRow | undefined {
  return rows.find((row) => row.server === server && row.scenario === scenario);
}

/** Every measured server that is not a baseline, over each baseline, scenario by scenario. */
export function compareServers(rows: readonly RunRow[]): Comparison[] {
  const rps = (server: ServerName, scenario: ScenarioId) =>
    rowOf(rows, server, scenario)?.load.requestsPerSecond;
  return rows
    .filter((row) => row.server !== 'prism' && row.server !== 'bare')
    .map(({ scenario, server }) => ({
      scenario,
      server,
      overPrism: ratio(rps(server, scenario), rps('prism', scenario)),
      overBare: ratio(rps(server, scenario), rps('bare', scenario)),
    }));
}

/** The targets gate the memory store only; the Redis figures are reported beside them. */
export function checkTargets(rows: readonly RunRow[]): TargetCheck[] {
  const comparison = compareServers(rows).find(
    (c) => c.scenario === TARGET_SCENARIO && c.server === 'simulator',
  );
  const p99 = rowOf(rows, 'simulator', TARGET_SCENARIO)?.load.latencyP99Ms ?? null;
  const atLeast = (value: number | null, target: number) => value !== null && value >= target;
  return [
    {
      id: 'throughput-over-prism',
      description: `${TARGET_SCENARIO}: simulator req/s >= ${TARGETS.overPrism}x prism mock`,
      value: comparison?.overPrism ?? null,
      target: TARGETS.overPrism,
      met: atLeast(comparison?.overPrism ?? null, TARGETS.overPrism),
    },
    {
      id: 'throughput-over-bare',
      description: `${TARGET_SCENARIO}: simulator req/s >= ${TARGETS.overBare}x bare node:http`,
      value: comparison?.overBare ?? null,
      target: TARGETS.overBare,
      met: atLeast(comparison?.overBare ?? null, TARGETS.overBare),
    },
    {
      id: 'p99',
      description: `${TARGET_SCENARIO}: simulator p99 < ${TARGETS.p99Ms} ms at 20 connections`,
      value: p99,
      target: TARGETS.p99Ms,
      met: p99 !== null && p99 < TARGETS.p99Ms,
    },
  ];
}

/** Share of answers that are not 2xx, connection errors and timeouts included (1 when nothing came back). */
export function errorShare(load: LoadResult): number {
  const failed = load.non2xx + load.errors;
  const total = load.requests + load.errors;
  return total === 0 ? 1 : failed / total;
}

/** Runs dominated by non-2xx answers or errors: their numbers are worthless. */
export function invalidRuns(rows: readonly RunRow[]): RunRow[] {
  return rows.filter((row) => errorShare(row.load) > MAX_ERROR_SHARE);
}
