/**
 * The benchmark's targets, computed from the runs (TARGETS below), printed MET / MISSED / NOT MEASURED;
 * `--gate` turns a missed or unmeasured one into exit code 1.
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
  /** `<scenario>:<measure>` or `startup` / `memory`. */
  id: string;
  description: string;
  /** null: not measured in this run (a server or a phase left out). */
  value: number | null;
  unit: 'x' | 'ms' | 'MiB';
  target: number;
  met: boolean;
}

/**
 * The release targets: the memory store over bare node:http serving the same bodies (a page of 100
 * transactions and a GET of one link at least half its throughput, a POST at least 0.3x), p99 under 10
 * ms on the page at 20 connections, at least 5x Prism's mock on the page; each scenario on Redis at
 * least half the memory store's throughput with p99 under 25 ms; start-up at most 0.2x Prism's; a
 * million transactions in under 1 GiB.
 */
export const TARGETS = {
  overPrism: 5,
  overBare: { 'list-transactions-100': 0.5, 'get-link': 0.5, 'post-link': 0.3 },
  p99Ms: 10,
  redisOverMemory: 0.5,
  redisP99Ms: 25,
  startupOverPrism: 0.2,
  memoryMiB: 1024,
} as const;
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

const atLeast = (value: number | null, target: number) => value !== null && value >= target;
const below = (value: number | null, target: number) => value !== null && value < target;

function check(
  id: string,
  description: string,
  value: number | null,
  unit: TargetCheck['unit'],
  target: number,
  met: (value: number | null, target: number) => boolean,
): TargetCheck {
  return { id, description, value, unit, target, met: met(value, target) };
}

/** The memory store's targets over the baselines, scenario by scenario. */
function memoryTargets(rows: readonly RunRow[]): TargetCheck[] {
  const rps = (server: ServerName, scenario: ScenarioId) =>
    rowOf(rows, server, scenario)?.load.requestsPerSecond;
  const page = TARGET_SCENARIO;
  const checks = [
    check(
      `${page}:over-prism`,
      `${page}: simulator req/s >= ${TARGETS.overPrism}x prism mock`,
      ratio(rps('simulator', page), rps('prism', page)),
      'x',
      TARGETS.overPrism,
      atLeast,
    ),
  ];
  for (const [scenario, target] of Object.entries(TARGETS.overBare) as [ScenarioId, number][]) {
    checks.push(
      check(
        `${scenario}:over-bare`,
        `${scenario}: simulator req/s >= ${target}x bare node:http`,
        ratio(rps('simulator', scenario), rps('bare', scenario)),
        'x',
        target,
        atLeast,
      ),
    );
  }
  checks.push(
    check(
      `${page}:p99`,
      `${page}: simulator p99 < ${TARGETS.p99Ms} ms at 20 connections`,
      rowOf(rows, 'simulator', page)?.load.latencyP99Ms ?? null,
      'ms',
      TARGETS.p99Ms,
      below,
    ),
  );
  return checks;
}

/** One replica on Redis against the memory store, every scenario (null when Redis was left out). */
function redisTargets(rows: readonly RunRow[]): TargetCheck[] {
  const scenarios = Object.keys(TARGETS.overBare) as ScenarioId[];
  return scenarios.flatMap((scenario) => {
    const redis = rowOf(rows, 'simulator-redis', scenario)?.load;
    const memory = rowOf(rows, 'simulator', scenario)?.load;
    return [
      check(
        `${scenario}:redis-over-memory`,
        `${scenario}: Redis store req/s >= ${TARGETS.redisOverMemory}x memory store`,
        ratio(redis?.requestsPerSecond, memory?.requestsPerSecond),
        'x',
        TARGETS.redisOverMemory,
        atLeast,
      ),
      check(
        `${scenario}:redis-p99`,
        `${scenario}: Redis store p99 < ${TARGETS.redisP99Ms} ms`,
        redis?.latencyP99Ms ?? null,
        'ms',
        TARGETS.redisP99Ms,
        below,
      ),
    ];
  });
}

/** The load phase's targets: the memory store's, then Redis's. */
export function checkTargets(rows: readonly RunRow[]): TargetCheck[] {
  return [...memoryTargets(rows), ...redisTargets(rows)];
}

/** Start-up against Prism's and the memory a million transactions take (null: not measured). */
export function checkRunTargets(startupOverPrism: number | null, loadedMiB: number | null): TargetCheck[] {
  return [
    check(
      'startup',
      `start-up: ofkit simulate <= ${TARGETS.startupOverPrism}x prism mock`,
      startupOverPrism,
      'x',
      TARGETS.startupOverPrism,
      (value, target) => value !== null && value <= target,
    ),
    check(
      'memory',
      `memory: 10,000 links and 1,000,000 transactions < ${TARGETS.memoryMiB} MiB`,
      loadedMiB,
      'MiB',
      TARGETS.memoryMiB,
      below,
    ),
  ];
}

/** `--gate`: exit 1 unless every target was measured and met; the lines say which were not. */
export function gateVerdict(checks: readonly TargetCheck[]): { pass: boolean; lines: string[] } {
  const missed = checks.filter((c) => c.value !== null && !c.met).map((c) => `MISSED ${c.description}`);
  const unmeasured = checks.filter((c) => c.value === null).map((c) => `NOT MEASURED ${c.description}`);
  const lines = [...missed, ...unmeasured];
  return { pass: lines.length === 0, lines };
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
