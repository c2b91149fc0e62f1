import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../runner/run-rule.js';
import { compareWithBaseline, normalizeMessage, readBaseline } from './baseline.js';

const failed = (id: string, message: string, operation = 'getLink'): RuleResult => ({
  id,
  title: id,
  area: 'cross-cutting',
  status: 'failed',
  runs: 3,
  durationMs: 1,
  reached: 3,
  notes: [],
  failure: { message, seed: 1, path: null, counterexample: null, shrinks: 0, exchanges: [], operation },
});
const passed = (id: string): RuleResult =>
  ({ ...failed(id, ''), status: 'passed', failure: undefined }) as RuleResult;

function baselineOf(results: RuleResult[]) {
  const path = join(mkdtempSync(join(tmpdir(), 'ofkit-baseline-')), 'report.json');
  writeFileSync(path, JSON.stringify({ format: 'ofkit-check-report/2', rules: results }));
  return readBaseline(path, false);
}

describe('a failure signature', () => {
  it('leaves out values: ids, quoted values, bodies, numbers; keeps the statuses and the member names', () => {
    const one = normalizeMessage(
      'getLink (GET /api/links/{id}/) with unknown ids {"id":"_xj_F"}: wanted 404, got 400 application/json [{"request_id":"8b0971e2-62a5-43c1-b586-b360fe04a3ec","code":"invalid"}]',
    );
    const other = normalizeMessage(
      'getLink (GET /api/links/{id}/) with unknown ids {"id":"b"}: wanted 404, got 400 application/json [{"request_id":"0f3c","code":"invalid","field":"id"}]',
    );
    expect(one).toBe(other);
    expect(one).toBe(
      'getLink (GET /api/links/{id}/) with unknown ids …: wanted HTTP404, got HTTP400 application/json …',
    );
    expect(normalizeMessage('page 3 holds 1500 records, `count` says "1,500"')).toBe(
      'page # holds # records, `count` says ""',
    );
  });

  it('tells another wrong status apart', () => {
    expect(normalizeMessage('wanted 404, got 400')).not.toBe(normalizeMessage('wanted 404, got 410'));
  });
});

describe('a run against a baseline', () => {
  const baseline = baselineOf([failed('ERR-404', 'wanted 404, got 400 {"id":"a"}'), passed('ERR-BODY')]);

  it('passes on a known failure, however its values differ', () => {
    const verdict = compareWithBaseline(
      [failed('ERR-404', 'wanted 404, got 400 {"id":"zz"}'), passed('ERR-BODY')],
      baseline,
      false,
    );
    expect(verdict).toEqual({ regressions: [], known: ['ERR-404'], improved: [] });
  });

  it('fails on a rule that passed there, and on a failure the baseline does not have', () => {
    const verdict = compareWithBaseline(
      [
        failed('ERR-404', 'wanted 404, got 410 {"id":"a"}'),
        failed('ERR-BODY', 'same request_id', 'getApiRoot'),
      ],
      baseline,
      false,
    );
    expect(verdict.regressions.map((r) => r.id)).toEqual(['ERR-404', 'ERR-BODY']);
    expect(verdict.regressions[0]?.why).toMatch(
      /^a failure the baseline does not have: ERR-404 \| getLink \| wanted HTTP404, got HTTP410/,
    );
    expect(verdict.regressions[1]?.why).toBe('passed in the baseline, fails now');
  });

  it('says what improved', () => {
    expect(compareWithBaseline([passed('ERR-404'), passed('ERR-BODY')], baseline, false).improved).toEqual([
      'ERR-404',
    ]);
  });

  it('refuses a file that is no report of ofkit check', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ofkit-baseline-')), 'x.json');
    writeFileSync(path, '{"rules": 3}');
    expect(() => readBaseline(path, false)).toThrow(/is not a JSON report of ofkit check/);
  });
});
