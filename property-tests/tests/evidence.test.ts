/**
 * No green without evidence: against a server that implements 3 operations of 147 and answers a valid
 * 404 everywhere else, `ofkit check` says 3 operations passed and 144 are not implemented (their SCHEMA
 * rows inconclusive, never passed on the 404), and the CI mode of the recipes
 * (`--strict --min-coverage operations=100`) exits 1. The reports agree with the console.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../tests/support/altering-proxy.js';
import { runCheck } from './check-output.js';
import { startPartialServer } from './partial-server.js';
import { type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

const KEY = { id: 'ofkit-key-a', secret: 'ofkit-secret-a' };
let simulator: SimulatorTarget;
let partial: RunningServer;

beforeAll(async () => {
  simulator = await startSimulatorTarget();
  partial = await startPartialServer(simulator.baseUrl, KEY, [
    ['GET', '/api/'],
    ['GET', '/api/institutions/'],
    ['GET', '/api/institutions/{id}/'],
  ]);
}, 60_000);

afterAll(async () => {
  await partial.stop();
  await simulator.stop();
});

interface JunitCase {
  name: string;
  skipped?: { message: string };
  failure?: { message: string; type: string };
}

function junitCases(path: string): JunitCase[] {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    processEntities: false,
  }).parse(readFileSync(path, 'utf8'));
  return parsed.testsuites.testsuite.flatMap((suite: { testcase: JunitCase | JunitCase[] }) =>
    [suite.testcase].flat(),
  );
}

describe('a server that implements 3 operations and answers 404 elsewhere', () => {
  it('3 operations passed, 144 not implemented; --strict --min-coverage operations=100 exits 1', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-evidence-'));
    const { code, out } = await runCheck([
      partial.baseUrl,
      ...['--keys', `${KEY.id}:${KEY.secret}`, '--seed', '3', '--runs', '2'],
      ...['--strict', '--min-coverage', 'operations=100'],
      ...['--report', `junit:${join(dir, 'c.xml')}`, '--report', `json:${join(dir, 'c.json')}`],
    ]);
    expect(code).toBe(1);
    // The headline: the verdicts and the coverage together.
    expect(out).toMatch(
      /211 rules: \d+ passed, \d+ failed, \d+ inconclusive, \d+ skipped, 1 skipped \(environment\); coverage: operations 3\/147 \(2%\)/,
    );
    expect(out).toContain('operations: 3 passed, 144 not implemented (never answered a success status)\n');
    expect(out).toMatch(
      / {2}not implemented: getAccount \(GET \/api\/accounts\/\{id\}\/\): no success answer: not implemented\? \(answered 401x1, 404x\d+\)/,
    );
    expect(out).toContain('coverage gate: operations coverage 2% is below --min-coverage operations=100');
    expect(out).toMatch(/strict: \d+ inconclusive rules fail the run/);
    const json = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    expect(json.operations).toMatchObject({ passed: 3, 'not implemented': 144, failed: 0 });
    const byId = new Map(json.rules.map((rule: { id: string }) => [rule.id, rule]));
    expect(byId.get('SCHEMA:getInstitution')).toMatchObject({ status: 'passed' });
    expect(byId.get('SCHEMA:getAccount')).toMatchObject({
      status: 'inconclusive',
      reason: expect.stringMatching(/^no success answer: not implemented\?/),
    });
    // A list the server lacks answers an undeclared 404: not implemented, not a failed shape.
    expect(byId.get('SCHEMA:listAccounts')).toMatchObject({ status: 'inconclusive' });
    // Under --strict the JUnit report fails the inconclusive rows, as the exit code does.
    const cases = junitCases(join(dir, 'c.xml'));
    const row = cases.find((c) => c.name.startsWith('SCHEMA:getAccount:'));
    expect(row?.failure).toMatchObject({ type: 'inconclusive' });
    expect(row?.failure?.message).toMatch(/^inconclusive: no success answer: not implemented\?/);
  });
});
