import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../load/run-load.js';
import type { ScenarioId } from '../load/scenarios.js';
import { formatOverBare, formatPeers, formatRuns, formatTable, formatTargets } from './format-report.js';
import {
  checkRecorderTargets,
  checkRunTargets,
  checkTargets,
  errorShare,
  gateVerdict,
  invalidRuns,
  type RunRow,
  ratio,
  type ServerName,
} from './targets.js';

function load(
  requestsPerSecond: number,
  p99: number,
  statusCodes: Record<string, number> = { 200: 1000 },
): LoadResult {
  const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const non2xx = Object.entries(statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requestsPerSecond,
    latencyP50Ms: 1,
    latencyP99Ms: p99,
    latencyAvgMs: 1,
    latencyMaxMs: p99,
    requests,
    non2xx,
    statusCodes,
    errors: 0,
    timeouts: 0,
    durationSeconds: 1,
  };
}

const row = (
  server: ServerName,
  cpuUs: number | null,
  p99 = 5,
  scenario: ScenarioId = 'list-transactions-100',
): RunRow => ({
  server,
  scenario,
  bodyBytes: 142_000,
  load: load(1000, p99),
  cpuUs,
  cpuUsByRound: [cpuUs, cpuUs, cpuUs],
});

const byId = (rows: RunRow[], notRun: Record<string, string> = {}) =>
  new Map(checkTargets(rows, notRun).map((c) => [c.id, c]));

/** Every scenario on the simulator (the adapter for the constant body) at `factor` times bare's CPU. */
function scenarioRows(factors: Record<ScenarioId, number>): RunRow[] {
  return (Object.entries(factors) as [ScenarioId, number][]).flatMap(([scenario, factor]) => [
    row(scenario === 'constant-body' ? 'adapter' : 'simulator', 100 * factor, 9, scenario),
    row('bare', 100, 1, scenario),
  ]);
}

describe('CPU per request over bare', () => {
  it('divides, and gives null for a missing or zero denominator', () => {
    expect(ratio(10, 4)).toBe(2.5);
    expect(ratio(10, 0)).toBeNull();
    expect(ratio(undefined, 4)).toBeNull();
    expect(ratio(10, null)).toBeNull();
  });

  it('meets each target at exactly its ratio: page 2x, GET 3x, POST 5x, the adapter alone 1.5x', () => {
    const checks = byId(
      scenarioRows({ 'list-transactions-100': 2, 'get-link': 3, 'post-link': 5, 'constant-body': 1.5 }),
    );
    for (const id of ['list-transactions-100', 'get-link', 'post-link', 'constant-body'])
      expect(checks.get(`${id}:cpu-over-bare`)?.met).toBe(true);
    expect(checks.get('constant-body:cpu-over-bare')).toMatchObject({ value: 1.5 });
    expect(checks.get('list-transactions-100:p99')).toMatchObject({ value: 9, met: true });
  });

  it('misses each target just above it, and the page p99 at exactly 10 ms', () => {
    const rows = scenarioRows({
      'list-transactions-100': 2.01,
      'get-link': 3.01,
      'post-link': 5.01,
      'constant-body': 1.51,
    });
    rows[0] = { ...rows[0]!, load: load(1000, 10) };
    const checks = checkTargets(rows);
    expect(checks.filter((c) => c.id.endsWith(':cpu-over-bare')).map((c) => c.met)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(formatTargets(checks)).toContain(
      'MISSED        list-transactions-100: simulator p99 < 10 ms at 20 connections: 10 ms',
    );
  });

  it('compares the adapter, not the simulator, on the constant body', () => {
    const rows = [
      row('simulator', 1000, 1, 'constant-body'),
      row('adapter', 120, 1, 'constant-body'),
      row('bare', 100, 1, 'constant-body'),
    ];
    expect(byId(rows).get('constant-body:cpu-over-bare')?.value).toBeCloseTo(1.2);
  });

  it('is not measured (never met) when a side or its CPU reading is missing', () => {
    const checks = byId([row('simulator', 300), row('bare', null)]);
    expect(checks.get('list-transactions-100:cpu-over-bare')).toMatchObject({ value: null, met: false });
    expect(checks.get('get-link:cpu-over-bare')).toMatchObject({ value: null, met: false });
  });
});

describe('rounds that fall on both sides of a target', () => {
  /** A row whose rounds are these CPU readings (its median the middle one). */
  const rounds = (server: ServerName, cpuUsByRound: number[]): RunRow => ({
    ...row(server, [...cpuUsByRound].sort((a, b) => a - b)[1]!),
    cpuUsByRound,
  });

  it('make a ratio INCONCLUSIVE, whichever side its medians fall on, and the gate takes it for no', () => {
    const checks = byId([rounds('simulator', [150, 250, 190]), rounds('bare', [100, 100, 100])]);
    const page = checks.get('list-transactions-100:cpu-over-bare')!;
    expect(page).toMatchObject({ value: 1.9, met: true });
    expect(page.inconclusive).toBe('the rounds fall on both sides of 2x: 1.50x, 2.50x, 1.90x');
    expect(formatTargets([page])).toBe(
      'INCONCLUSIVE  list-transactions-100: simulator CPU/request <= 2x bare node:http on the same bytes: 1.90x ' +
        '(met by the medians; the rounds fall on both sides of 2x: 1.50x, 2.50x, 1.90x)',
    );
    expect(gateVerdict([page])).toEqual({
      pass: false,
      lines: [`INCONCLUSIVE ${page.description} (${page.inconclusive})`],
    });
  });

  it('pair each round with the same round of the other server, not with its median', () => {
    // Both servers slower in round 2 (a busy second on the machine): every round says 2x or less.
    const checks = byId([rounds('simulator', [180, 380, 190]), rounds('bare', [100, 200, 100])]);
    expect(checks.get('list-transactions-100:cpu-over-bare')).toMatchObject({ value: 1.9, met: true });
    expect(checks.get('list-transactions-100:cpu-over-bare')?.inconclusive).toBeUndefined();
    expect(gateVerdict([checks.get('list-transactions-100:cpu-over-bare')!]).pass).toBe(true);
  });

  it('leave a peer row INCONCLUSIVE too, and a clear miss MISSED', () => {
    const checks = byId([
      rounds('simulator', [100, 100, 100]),
      rounds('prism', [90, 120, 110]),
      rounds('mockoon', [50, 60, 70]),
    ]);
    expect(checks.get('peer:prism')?.inconclusive).toContain('both sides of 1x');
    expect(checks.get('peer:mockoon')?.met).toBe(false);
    expect(checks.get('peer:mockoon')?.inconclusive).toBeUndefined();
  });
});

describe('Redis rows and peers', () => {
  it('holds Redis to p99 under 25 ms in every API scenario', () => {
    const rows = (['list-transactions-100', 'get-link', 'post-link'] as ScenarioId[]).map((s, i) =>
      row('simulator-redis', 200, 24 + i, s),
    );
    const checks = byId(rows);
    expect(checks.get('list-transactions-100:redis-p99')?.met).toBe(true);
    expect(checks.get('get-link:redis-p99')?.met).toBe(false);
    expect(checks.get('post-link:redis-p99')?.met).toBe(false);
  });

  it('wants the simulator page below each peer and says why a peer did not run', () => {
    const rows = [row('simulator', 150), row('prism', 600), row('json-server', 150)];
    const checks = byId(rows, { mockoon: 'did not start: exited before it was ready' });
    expect(checks.get('peer:prism')).toMatchObject({ value: 0.25, met: true });
    expect(checks.get('peer:json-server')).toMatchObject({ value: 1, met: false });
    expect(checks.get('peer:mockoon')).toMatchObject({ value: null, met: false });
    expect(checks.get('peer:mockoon')?.description).toContain('mockoon not run: did not start');
    const table = formatPeers(rows, { mockoon: 'did not start' });
    expect(table).toMatch(/prism\s+142,000\s+600\s+1,000\s+0\.25x/);
    expect(table).toContain('not run: did not start');
  });
});

describe('the other targets and the gate', () => {
  it('start-up at most 0.2x Prism, memory under 1 GiB; the gate fails on a miss and on what was not measured', () => {
    expect(checkRunTargets(0.2, 1023).map((c) => c.met)).toEqual([true, true]);
    expect(checkRunTargets(0.21, 1024).map((c) => c.met)).toEqual([false, false]);
    expect(gateVerdict([...checkRunTargets(0.1, 800)])).toEqual({ pass: true, lines: [] });
    const verdict = gateVerdict([...checkRunTargets(0.3, null)]);
    expect(verdict.pass).toBe(false);
    expect(verdict.lines).toEqual([
      'MISSED start-up: ofkit simulate <= 0.2x prism mock',
      'NOT MEASURED memory: 10,000 links and 1,000,000 transactions < 1024 MiB',
    ]);
    expect(formatTargets(checkRunTargets(0.3, null))).toContain('NOT MEASURED  memory');
  });

  it('the recorder: at most 2 ms of CPU per page, its added p99 at most 1 ms above the bare pipe', () => {
    expect(checkRecorderTargets(2, 1.5, 0.5).map((c) => c.met)).toEqual([true, true]);
    expect(checkRecorderTargets(2.01, 1.51, 0.5).map((c) => c.met)).toEqual([false, false]);
    expect(checkRecorderTargets(null, 1, null).map((c) => c.value)).toEqual([null, null]);
  });

  it('flags runs where non-2xx answers dominate', () => {
    const bad: RunRow = { ...row('json-server', 90), load: load(900, 3, { 200: 10, 401: 990 }) };
    expect(errorShare(bad.load)).toBeCloseTo(0.99);
    expect(invalidRuns([row('simulator', 100), bad])).toEqual([bad]);
    expect(formatRuns([bad])).toContain('401:990 <- NOT 2xx');
  });
});

describe('report formatting', () => {
  it('aligns the first column left and the others right', () => {
    expect(
      formatTable(
        ['a', 'b'],
        [
          ['xyz', '1'],
          ['q', '123'],
        ],
      ).split('\n'),
    ).toEqual(['a      b', '---  ---', 'xyz    1', 'q    123']);
  });

  it('prints each round, the median, and CPU and req/s over bare (n/a without bare)', () => {
    const rows = [{ ...row('simulator', 240), cpuUsByRound: [250, 240, null] }, row('bare', 100)];
    expect(formatRuns(rows)).toMatch(/list-transactions-100 \/ simulator\s+142,000\s+240\s+250 240 n\/a/);
    expect(formatOverBare(rows)).toMatch(/simulator\s+2\.40x\s+1\.00x/);
    expect(formatOverBare([row('simulator', 240, 5, 'get-link')])).toContain('n/a');
  });
});
