/**
 * The benchmark's targets, computed from the runs: on GET of a 100-record page, at least 5x Prism's
 * throughput, at least half of bare node:http's, and p99 under 10 ms at 20 connections.
 */
import type { LoadResult } from '../load/run-load.js';
import { type ScenarioId, TARGET_SCENARIO } from '../load/scenarios.js';

export type ServerName = 'simulator' | 'prism' | 'bare';

export interface RunRow {
  server: ServerName;
  scenario: ScenarioId;
  /** Body size of the server's answer to the probe request. */
  bodyBytes: number;
  load: LoadResult;
}

export interface Comparison {
  scenario: ScenarioId;
  /** Throughput simulator / prism (null when a side is missing or zero). */
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

export function compareServers(rows: readonly RunRow[]): Comparison[] {
  const scenarios = [...new Set(rows.map((row) => row.scenario))];
  return scenarios.map((scenario) => {
    const rps = (server: ServerName) => rowOf(rows, server, scenario)?.load.requestsPerSecond;
    return {
      scenario,
      overPrism: ratio(rps('simulator'), rps('prism')),
      overBare: ratio(rps('simulator'), rps('bare')),
    };
  });
}

export function checkTargets(rows: readonly RunRow[]): TargetCheck[] {
  const comparison = compareServers(rows).find((c) => c.scenario === TARGET_SCENARIO);
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
