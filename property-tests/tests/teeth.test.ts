/**
 * Teeth: the suite fails a target that breaks a rule, on that rule, with a reproduction a person can
 * run; and the same rule passes the same target unbroken.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { check } from '../../scripts/cli/check.js';
import { crossCuttingRules } from '../src/rules/cross-cutting/index.js';
import { allRules } from '../src/rules/index.js';
import { runSuite } from '../src/runner/run-suite.js';
import { selectRules } from '../src/runner/select-rules.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { FAKE_KEY, type FakeBreakage, startFakeTarget } from './fake-target.js';

const document = loadApiDocument();
/** The fake implements two operations; the rest of the document is left out (operations.exclude). */
const ONLY_FAKE_OPERATIONS = ['*', '!getApiRoot', '!listLinks'];
const stops: (() => void)[] = [];

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.restoreAllMocks();
});

async function runAgainst(breakage: FakeBreakage, ruleId: string) {
  const fake = await startFakeTarget(breakage);
  stops.push(fake.stop);
  const config = parseTargetConfig({
    baseUrl: fake.baseUrl,
    keys: [`${FAKE_KEY.id}:${FAKE_KEY.secret}`],
    file: { operations: { exclude: ONLY_FAKE_OPERATIONS } },
  });
  const rules = selectRules(allRules(document), [ruleId]);
  const suite = await runSuite({ config, rules, seed: 7, runs: 15, document });
  return suite.results[0]!;
}

describe.each([
  ['AUTH-BASIC', { authOptional: true }, /with no credentials|with wrong credentials.*wanted 401/],
  ['ERR-BODY', { problemJson: true }, /application\/json \(the error array\)/],
  ['PAGE-MAX', { ignorePageSize: true }, /make \d+ records on page \d+, not 30/],
] as const)('%s', (ruleId, breakage, message) => {
  it('fails against a target that breaks it, with the shrunk case as masked curl commands', async () => {
    const result = await runAgainst(breakage, ruleId);
    expect(result.status).toBe('failed');
    expect(result.failure?.message).toMatch(message);
    expect(result.failure?.exchanges.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.failure)).not.toContain(FAKE_KEY.secret);
  });

  it('passes against the same target unbroken', async () => {
    const result = await runAgainst({}, ruleId);
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
  });
});

describe('rules stay independent', () => {
  const ids = (results: { id: string; status: string }[]) =>
    results.filter((r) => r.status === 'failed').map((r) => r.id);
  async function failedRules(breakage: FakeBreakage): Promise<string[]> {
    const fake = await startFakeTarget(breakage);
    stops.push(fake.stop);
    const config = parseTargetConfig({
      baseUrl: fake.baseUrl,
      keys: [`${FAKE_KEY.id}:${FAKE_KEY.secret}`],
      file: { operations: { exclude: ONLY_FAKE_OPERATIONS } },
    });
    const suite = await runSuite({ config, rules: crossCuttingRules, seed: 11, runs: 10, document });
    return ids(suite.results);
  }

  it.each([
    [{ problemJson: true }, ['ERR-BODY']],
    [{ ignorePageSize: true }, ['PAGE-MAX']],
    // API-ROOT says the same of GET /api/: "401 otherwise".
    [{ authOptional: true }, ['AUTH-BASIC', 'API-ROOT']],
  ] as const)('breaking %o fails exactly %o', async (breakage, expected) => {
    // The fake filters nothing (FILTER-IN, FILTER-RANGE, FILTER-LOOKUP fail on it unbroken): compare with that.
    const intact = await failedRules({});
    expect(intact).toEqual(['FILTER-RANGE', 'FILTER-IN', 'FILTER-LOOKUP']);
    const broken = await failedRules(breakage);
    expect(broken.filter((id) => !intact.includes(id))).toEqual(expected);
  });
});

describe('ofkit check', () => {
  it('exits 1 on a failure, printing the seed, the replay command and curl, and writes the reports', async () => {
    const fake = await startFakeTarget({ ignorePageSize: true });
    stops.push(fake.stop);
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-check-'));
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ operations: { exclude: ONLY_FAKE_OPERATIONS } }),
    );
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((text: string) => printed.push(text));
    const code = await check([
      fake.baseUrl,
      ...['--keys', `${FAKE_KEY.id}:${FAKE_KEY.secret}`, '--config', join(dir, 'config.json')],
      ...['--rules', 'PAGE-*,API-ROOT', '--seed', '99', '--runs', '10'],
      ...['--report', `junit:${join(dir, 'report.xml')}`, '--report', `json:${join(dir, 'report.json')}`],
    ]);
    const output = printed.join('\n');
    expect(code).toBe(1);
    expect(output).toContain('seed 99');
    expect(output).toMatch(
      /replay: npx ofkit check '.+' --rules 'PAGE-MAX' --seed 99 --runs 10 --config '.+'/,
    );
    expect(output).toContain(`-u "$OFKIT_KEY:$OFKIT_SECRET"`);
    expect(output).not.toContain(FAKE_KEY.secret);
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(json.rules.find((r: { id: string }) => r.id === 'API-ROOT').status).toBe('passed');
    expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toContain('<failure');
  });

  it('exits 2 on a usage error and 0 with --help', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(await check(['http://127.0.0.1:1', '--runs', 'zero'])).toBe(2);
    expect(await check(['--help'])).toBe(0);
  });
});
