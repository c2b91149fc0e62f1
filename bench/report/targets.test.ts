import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../load/run-load.js';
import type { ScenarioId } from '../load/scenarios.js';
import { formatComparisons, formatRuns, formatTable, formatTargets } from './format-report.js';
import {
  checkRunTargets,
  checkTargets,
  compareServers,
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
  rps: number,
  p99 = 5,
  scenario: ScenarioId = 'list-transactions-100',
): RunRow => ({
  server,
  scenario,
  bodyBytes: 50_000,
  load: load(rps, p99),
});

/** The page targets only: over Prism, over bare, p99. */
const pageChecks = (rows: RunRow[]) =>
  checkTargets(rows).filter((c) =>
    [
      'list-transactions-100:over-prism',
      'list-transactions-100:over-bare',
      'list-transactions-100:p99',
    ].includes(c.id),
  );

describe('ratios and targets', () => {
  it('divides, and gives null for a missing or zero denominator', () => {
    expect(ratio(10, 4)).toBe(2.5);
    expect(ratio(10, 0)).toBeNull();
    expect(ratio(undefined, 4)).toBeNull();
  });

  it('meets every target at 5x prism, 0.5x bare and p99 9 ms', () => {
    const rows = [row('simulator', 6000, 9), row('prism', 1200), row('bare', 12_000)];
    expect(compareServers(rows)).toEqual([
      { scenario: 'list-transactions-100', server: 'simulator', overPrism: 5, overBare: 0.5 },
    ]);
    expect(pageChecks(rows).map((check) => check.met)).toEqual([true, true, true]);
  });

  it('misses each target just below it, and p99 at exactly 10 ms', () => {
    const rows = [row('simulator', 5999, 10), row('prism', 1200), row('bare', 12_000)];
    expect(pageChecks(rows).map((check) => check.met)).toEqual([false, false, false]);
    expect(formatTargets(checkTargets(rows))).toContain(
      'MISSED        list-transactions-100: simulator p99 < 10 ms at 20 connections: 10 ms',
    );
  });

  it('compares every Redis server with both baselines', () => {
    const rows = [
      row('simulator', 6000, 9),
      row('simulator-redis', 1800, 25),
      row('simulator-redis-x2', 2400, 30),
      row('prism', 1200),
      row('bare', 12_000),
    ];
    expect(compareServers(rows)).toEqual([
      { scenario: 'list-transactions-100', server: 'simulator', overPrism: 5, overBare: 0.5 },
      { scenario: 'list-transactions-100', server: 'simulator-redis', overPrism: 1.5, overBare: 0.15 },
      { scenario: 'list-transactions-100', server: 'simulator-redis-x2', overPrism: 2, overBare: 0.2 },
    ]);
    expect(pageChecks(rows).map((check) => check.met)).toEqual([true, true, true]);
    const table = formatComparisons(compareServers(rows));
    expect(table).toContain('list-transactions-100 / simulator-redis-x2');
    expect(table).toMatch(/simulator-redis-x2\s+2\.00x\s+0\.20x/);
  });

  it('misses the targets when a server is missing, instead of dividing by nothing', () => {
    expect(pageChecks([row('simulator', 5000)]).map((check) => check.value)).toEqual([null, null, 5]);
  });

  it('every scenario over bare (GET and page 0.5x, POST 0.3x) and on Redis (0.5x memory, p99 < 25 ms)', () => {
    const scenarios: [ScenarioId, number][] = [
      ['list-transactions-100', 0.5],
      ['get-link', 0.5],
      ['post-link', 0.3],
    ];
    const rows = scenarios.flatMap(([scenario, share]) => [
      row('simulator', 1000, 5, scenario),
      row('bare', 1000 / share, 1, scenario),
      row('simulator-redis', 500, 24, scenario),
    ]);
    const byId = new Map(checkTargets(rows).map((c) => [c.id, c]));
    for (const [scenario] of scenarios) {
      expect(byId.get(`${scenario}:over-bare`)?.met).toBe(true);
      expect(byId.get(`${scenario}:redis-over-memory`)).toMatchObject({ value: 0.5, met: true });
      expect(byId.get(`${scenario}:redis-p99`)).toMatchObject({ value: 24, met: true });
    }
    const slowRedis = rows.map((r) => (r.server === 'simulator-redis' ? { ...r, load: load(499, 25) } : r));
    const missed = checkTargets(slowRedis).filter((c) => c.id.includes('redis') && !c.met);
    expect(missed).toHaveLength(6);
  });

  it('start-up at most 0.2x Prism, memory under 1 GiB; the gate fails on a miss and on what was not measured', () => {
    expect(checkRunTargets(0.2, 1023).map((c) => c.met)).toEqual([true, true]);
    expect(checkRunTargets(0.21, 1024).map((c) => c.met)).toEqual([false, false]);
    const measured = [...checkRunTargets(0.1, 800)];
    expect(gateVerdict(measured)).toEqual({ pass: true, lines: [] });
    const verdict = gateVerdict([...checkRunTargets(0.3, null)]);
    expect(verdict.pass).toBe(false);
    expect(verdict.lines).toEqual([
      'MISSED start-up: ofkit simulate <= 0.2x prism mock',
      'NOT MEASURED memory: 10,000 links and 1,000,000 transactions < 1024 MiB',
    ]);
    expect(formatTargets(checkRunTargets(0.3, null))).toContain('NOT MEASURED  memory');
  });

  it('flags runs where non-2xx answers dominate', () => {
    const bad: RunRow = { ...row('prism', 900), load: load(900, 3, { 200: 10, 401: 990 }) };
    expect(errorShare(bad.load)).toBeCloseTo(0.99);
    expect(invalidRuns([row('simulator', 1000), bad])).toEqual([bad]);
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

  it('prints ratios with two decimals and n/a for a missing side', () => {
    const text = formatComparisons([
      { scenario: 'get-link', server: 'simulator', overPrism: 6.456, overBare: null },
    ]);
    expect(text).toContain('6.46x');
    expect(text).toContain('n/a');
  });
});
