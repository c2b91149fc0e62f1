/**
 * The drift report groups findings by what differs where, counts the exchanges each shows in, sorts
 * by that count, keeps three samples, sets accepted differences apart (and says which allowances
 * matched nothing), keeps the client's side apart, and gates on what is left; its forms agree.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../checks/finding.js';
import { AllowFileError, allowLine, readAllowFile } from './allow-list.js';
import { buildDriftReport, driftExitCode, type SourcedFinding } from './drift-report.js';
import { consoleReport, junitReport, markdownReport } from './report-formats.js';

const finding = (exchange: number, extra: Partial<Finding> = {}): SourcedFinding => ({
  file: 'a.har',
  finding: {
    kind: 'undocumented-member',
    operation: 'listAccounts',
    status: 200,
    member: 'results[].nickname',
    message: '`results[].nickname` is not in the document',
    sample: `"n${exchange % 5}"`,
    exchange,
    ...extra,
  },
});

const input = (findings: SourcedFinding[], allow: { match: RegExp; reason: string }[] = []) =>
  buildDriftReport({
    documentVersion: '1.223.0',
    recordings: [{ file: 'a.har', creator: 'ofkit t', exchanges: 9, notChecked: {} }],
    checked: 9,
    operations: new Map([
      ['listAccounts', 6],
      ['getLink', 3],
    ]),
    findings,
    allowances: allow,
    judge: [],
  });

describe('buildDriftReport', () => {
  const findings = [
    ...[1, 2, 3, 4, 5].map((n) => finding(n)),
    finding(6, {
      kind: 'rule',
      rule: 'PAGE-NAV',
      member: undefined,
      sample: undefined,
      message: 'page 1 holds 99',
    }),
    finding(6, {
      kind: 'rule',
      rule: 'PAGE-NAV',
      member: undefined,
      sample: undefined,
      message: 'page 1 holds 99',
    }),
    finding(7, {
      kind: 'request',
      member: 'page_size',
      message: 'query page_size must be integer',
      operation: 'listLinks',
    }),
  ];

  it('with no exchange of the API checked, every form says there is no verdict, none says no drift', () => {
    const report = buildDriftReport({
      documentVersion: '1.223.0',
      recordings: [{ file: 'a.har', creator: 'ofkit t', exchanges: 0, notChecked: {} }],
      checked: 0,
      operations: new Map(),
      findings: [],
      allowances: [],
      judge: [],
    });
    expect(consoleReport(report)).toContain('\nno verdict: no exchange of the API was checked\n');
    expect(consoleReport(report)).not.toContain('no drift');
    expect(markdownReport(report)).toContain('**No verdict: no exchange of the API was checked.**');
    expect(junitReport(report)).toMatch(
      /<failure message="no exchange of the API was checked" type="nothing-checked">/,
    );
  });

  it('groups by difference, counts exchanges once, sorts by count, keeps three samples', () => {
    const report = input(findings);
    expect(report.drift.map((e) => [e.kind, e.rule, e.count])).toEqual([
      ['undocumented-member', undefined, 5],
      ['rule', 'PAGE-NAV', 1],
    ]);
    expect(report.drift[0]?.samples).toEqual(['"n1"', '"n2"', '"n3"']);
    expect(report.drift[0]?.firstSeen).toBe('a.har#1');
    expect(report.rulesBroken).toEqual([{ rule: 'PAGE-NAV', exchanges: 1 }]);
    expect(report.client.map((e) => e.operation)).toEqual(['listLinks']);
    expect(driftExitCode(report)).toBe(1);
  });

  it('sets accepted differences apart and names allowances that matched nothing', () => {
    const allow = [
      {
        match: /^listAccounts 200 undocumented-member results\[\]\.nickname$/,
        reason: 'v1.224 adds nicknames',
      },
      { match: /^never$/, reason: 'stale' },
    ];
    const report = input(findings.slice(0, 5), allow);
    expect(report.drift).toEqual([]);
    expect(report.allowed[0]).toMatchObject({ count: 5, allowed: 'v1.224 adds nicknames' });
    expect(report.unusedAllowances).toEqual(['^never$']);
    expect(driftExitCode(report)).toBe(0);
  });

  it('prints the same differences on the console, in JUnit and in Markdown', () => {
    const report = input(findings);
    expect(consoleReport(report)).toContain(
      '    5x listAccounts 200 undocumented-member results[].nickname: `results[].nickname` is not in the document (e.g. "n1", "n2", "n3")',
    );
    const junit = new XMLParser({ ignoreAttributes: false }).parse(junitReport(report));
    const suites = junit.testsuites.testsuite;
    const operations = suites.find((s: { '@_name': string }) => s['@_name'] === 'ofkit drift: operations');
    const failing = operations.testcase.filter((c: { failure?: unknown }) => c.failure !== undefined);
    expect(failing.map((c: { '@_name': string }) => c['@_name'])).toEqual(['listAccounts']);
    expect(markdownReport(report)).toContain(
      '| 5 | `listAccounts` | 200 | `results[].nickname` is not in the document | results[].nickname | "n1" |',
    );
  });
});

describe('readAllowFile', () => {
  it('reads a YAML list of { match, reason } and refuses anything else with the file and entry', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ofkit-allow-'));
    try {
      const good = join(folder, 'good.yaml');
      await writeFile(good, "- match: '^getLink 200 undocumented-member'\n  reason: new member\n");
      expect(
        readAllowFile(good)[0]?.match.test(
          allowLine({ operation: 'getLink', status: 200, kind: 'undocumented-member', member: 'x' }),
        ),
      ).toBe(true);
      const noReason = join(folder, 'no-reason.yaml');
      await writeFile(noReason, "- match: 'x'\n");
      expect(() => readAllowFile(noReason)).toThrow(AllowFileError);
      expect(() => readAllowFile(noReason)).toThrow(/entry 1 needs a `match` .* and a `reason`/);
      const map = join(folder, 'map.yaml');
      await writeFile(map, 'match: x\n');
      expect(() => readAllowFile(map)).toThrow(/wants a YAML list/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
