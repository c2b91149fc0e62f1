/**
 * The benchmark's targets, computed from the runs (TARGETS below), printed MET / MISSED / NOT MEASURED,
 * or INCONCLUSIVE where the interleaved rounds fall on both sides of a CPU ratio's target (on a noisy
 * shared machine the medians then only say which side the middle round fell on); `--gate` turns any
 * but MET into exit code 1. The speed targets are CPU time per request of the server process over bare
 * node:http serving the same bytes: on a shared 2-core machine that ratio holds from run to run where
 * throughput ratios mostly measure the load generator.
 */
import type { LoadResult } from '../load/run-load.js';
import { type ScenarioId, TARGET_SCENARIO } from '../load/scenarios.js';

/**
 * `simulator` is the memory store; `adapter` the simulator's HTTP adapter alone on a constant body;
 * `simulator-redis` one child on a RedisStore; `simulator-redis-x2` two children on that Redis, loaded
 * at once; `bare` node:http serving the same bytes; the peers each serve the same 100 transaction
 * records from their own store, in their own shape.
 */
export const PEER_NAMES = ['prism', 'json-server', 'mockoon'] as const;
export type PeerName = (typeof PEER_NAMES)[number];
export const SERVER_NAMES = [
  'simulator',
  'adapter',
  'simulator-redis',
  'simulator-redis-x2',
  'bare',
  ...PEER_NAMES,
] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface RunRow {
  server: ServerName;
  scenario: ScenarioId;
  /** Body size of the server's answer to the probe request. */
  bodyBytes: number;
  /** Medians over the rounds (req/s, latencies); counts summed. */
  load: LoadResult;
  /** Median microseconds of CPU per request of the server process(es), null when unreadable. */
  cpuUs: number | null;
  /** Each round's CPU per request, in the order run. */
  cpuUsByRound: (number | null)[];
  /** Redis rows: median microseconds of redis-server's CPU per request. */
  redisCpuUs?: number | null;
}

export interface TargetCheck {
  /** `<scenario>:<measure>`, `peer:<name>`, `recorder:<measure>`, or `startup` / `memory`. */
  id: string;
  description: string;
  /** null: not measured in this run (a server or a phase left out). */
  value: number | null;
  unit: 'x' | 'ms' | 'MiB' | 'us';
  target: number;
  met: boolean;
  /**
   * Why the verdict cannot be told from this run: the rounds fell on both sides of the target (each
   * round's ratio, in the order run). `met` is still what the medians say; the gate takes it for no.
   */
  inconclusive?: string;
}

/**
 * The release targets: the simulator's CPU per request over bare node:http on the same bytes (a page
 * of 100 transactions at most 2x, GET a link 3x, POST a link 5x; the HTTP adapter alone on a constant
 * body 1.5x); page p99 under 10 ms at 20 connections; on Redis p99 under 25 ms; the page's CPU per
 * request below each peer's; start-up at most 0.2x Prism's; a million transactions under 1 GiB; the
 * recorder at most 2 ms of CPU per page and at most 1 ms of p99 above a bare pipe's.
 */
export const TARGETS = {
  cpuOverBare: { 'list-transactions-100': 2, 'get-link': 3, 'post-link': 5, 'constant-body': 1.5 },
  p99Ms: 10,
  redisP99Ms: 25,
  startupOverPrism: 0.2,
  memoryMiB: 1024,
  recorderCpuMsPerPage: 2,
  recorderP99OverPipeMs: 1,
} as const;
/** A run where more than this share of answers are not 2xx measures error handling, not the scenario. */
export const MAX_ERROR_SHARE = 0.5;

export function ratio(
  numerator: number | null | undefined,
  denominator: number | null | undefined,
): number | null {
  if (numerator == null || denominator == null || denominator <= 0) return null;
  return numerator / denominator;
}

export function rowOf(rows: readonly RunRow[], server: ServerName, scenario: ScenarioId): RunRow | undefined {
  return rows.find((row) => row.server === server && row.scenario === scenario);
}

const atMost = (value: number | null, target: number) => value !== null && value <= target;
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

/** Each round's ratio of one row's CPU per request over another's (the same round of the interleaved runs). */
function roundRatios(numerator: RunRow | undefined, denominator: RunRow | undefined): number[] {
  if (numerator === undefined || denominator === undefined) return [];
  const ratios: number[] = [];
  const rounds = Math.min(numerator.cpuUsByRound.length, denominator.cpuUsByRound.length);
  for (let round = 0; round < rounds; round++) {
    const each = ratio(numerator.cpuUsByRound[round], denominator.cpuUsByRound[round]);
    if (each !== null) ratios.push(each);
  }
  return ratios;
}

/**
 * `check` of one row's CPU per request over another's (the ratio of their medians), INCONCLUSIVE when
 * its rounds fall on both sides of the target.
 */
function cpuRatioCheck(
  id: string,
  description: string,
  ours: RunRow | undefined,
  theirs: RunRow | undefined,
  target: number,
  met: (value: number | null, target: number) => boolean,
): TargetCheck {
  const base = check(id, description, ratio(ours?.cpuUs, theirs?.cpuUs), 'x', target, met);
  if (base.value === null) return base;
  const rounds = roundRatios(ours, theirs);
  const sides = new Set(rounds.map((each) => met(each, target)));
  if (sides.size < 2) return base;
  const each = rounds.map((value) => `${value.toFixed(2)}x`).join(', ');
  return { ...base, inconclusive: `the rounds fall on both sides of ${target}x: ${each}` };
}

/** Who is compared with bare in a scenario: the adapter alone on the constant body, else the simulator. */
export const comparedServer = (scenario: ScenarioId): ServerName =>
  scenario === 'constant-body' ? 'adapter' : 'simulator';

/** The memory store's (and the adapter's) CPU per request over bare's, scenario by scenario, and the page's p99. */
function memoryTargets(rows: readonly RunRow[]): TargetCheck[] {
  const checks = (Object.entries(TARGETS.cpuOverBare) as [ScenarioId, number][]).map(([scenario, target]) => {
    const server = comparedServer(scenario);
    return cpuRatioCheck(
      `${scenario}:cpu-over-bare`,
      `${scenario}: ${server} CPU/request <= ${target}x bare node:http on the same bytes`,
      rowOf(rows, server, scenario),
      rowOf(rows, 'bare', scenario),
      target,
      atMost,
    );
  });
  const page = TARGET_SCENARIO;
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

/** One replica on Redis, every scenario: p99 (its CPU per request is reported in the runs). */
function redisTargets(rows: readonly RunRow[]): TargetCheck[] {
  const scenarios: ScenarioId[] = ['list-transactions-100', 'get-link', 'post-link'];
  return scenarios.map((scenario) =>
    check(
      `${scenario}:redis-p99`,
      `${scenario}: Redis store p99 < ${TARGETS.redisP99Ms} ms`,
      rowOf(rows, 'simulator-redis', scenario)?.load.latencyP99Ms ?? null,
      'ms',
      TARGETS.redisP99Ms,
      below,
    ),
  );
}

/** The simulator's CPU per page below each peer's; a peer that did not run says why. */
function peerTargets(rows: readonly RunRow[], notRun: Readonly<Record<string, string>>): TargetCheck[] {
  const page = TARGET_SCENARIO;
  const ours = rowOf(rows, 'simulator', page);
  return PEER_NAMES.map((peer) => {
    const why = notRun[peer] === undefined ? '' : ` (${peer} not run: ${notRun[peer]})`;
    return cpuRatioCheck(
      `peer:${peer}`,
      `${page}: simulator CPU/request below ${peer}'s (ratio < 1)${why}`,
      ours,
      rowOf(rows, peer, page),
      1,
      below,
    );
  });
}

/** The load phase's targets: the memory store's, Redis's, then the peers' (`notRun`: peer -> why). */
export function checkTargets(
  rows: readonly RunRow[],
  notRun: Readonly<Record<string, string>> = {},
): TargetCheck[] {
  return [...memoryTargets(rows), ...redisTargets(rows), ...peerTargets(rows, notRun)];
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
      atMost,
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

/** The recorder: CPU per recorded page, and its added p99 beside a bare pipe's (null: not measured). */
export function checkRecorderTargets(
  cpuMsPerPage: number | null,
  recorderAddedP99Ms: number | null,
  pipeAddedP99Ms: number | null,
): TargetCheck[] {
  const over =
    recorderAddedP99Ms === null || pipeAddedP99Ms === null ? null : recorderAddedP99Ms - pipeAddedP99Ms;
  return [
    check(
      'recorder:cpu',
      `ofkit record: the recording's own CPU per page (redaction, checks, HAR) <= ${TARGETS.recorderCpuMsPerPage} ms`,
      cpuMsPerPage,
      'ms',
      TARGETS.recorderCpuMsPerPage,
      atMost,
    ),
    check(
      'recorder:p99',
      `ofkit record: added p99 <= ${TARGETS.recorderP99OverPipeMs} ms above a bare node:http pipe's`,
      over,
      'ms',
      TARGETS.recorderP99OverPipeMs,
      atMost,
    ),
  ];
}

/** `--gate`: exit 1 unless every target was measured and met beyond doubt; the lines say which were not. */
export function gateVerdict(checks: readonly TargetCheck[]): { pass: boolean; lines: string[] } {
  const measured = checks.filter((c) => c.value !== null);
  const missed = measured
    .filter((c) => c.inconclusive === undefined && !c.met)
    .map((c) => `MISSED ${c.description}`);
  const unsure = measured
    .filter((c) => c.inconclusive !== undefined)
    .map((c) => `INCONCLUSIVE ${c.description} (${c.inconclusive})`);
  const unmeasured = checks.filter((c) => c.value === null).map((c) => `NOT MEASURED ${c.description}`);
  const lines = [...missed, ...unsure, ...unmeasured];
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
