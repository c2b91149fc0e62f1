/**
 * No green without evidence: against a server that implements 3 operations of 147 and answers a valid
 * 404 everywhere else, `ofkit check` says 3 operations passed and 144 are not implemented (their SCHEMA
 * rows inconclusive, never passed on the 404), and the CI mode of the recipes
 * (`--strict --min-coverage operations=100`) exits 1. The reports agree with the console. Against a
 * server whose every list and retrieval is empty, no rule passes: a valid empty list shows no record;
 * in front of the simulator, a server that keeps nothing passes none of the rules about records.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningServer,
  startAlteringProxy,
  startEmptyLists,
} from '../../tests/test-support/altering-proxy.js';
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

describe('a server whose every list and retrieval is empty (valid, and without one record)', () => {
  it('passes no rule: the lists, retrievals and rules over records are inconclusive, never passed', {
    timeout: 120_000,
  }, async () => {
    const empty = await startEmptyLists();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'ofkit-evidence-'));
      const { code, out } = await runCheck([
        empty.baseUrl,
        ...['--keys', `${KEY.id}:${KEY.secret}`, '--seed', '3', '--runs', '2'],
        ...['--report', `json:${join(dir, 'c.json')}`],
      ]);
      expect(code).toBe(1);
      const json = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
      const rules: { id: string; status: string; reason?: string }[] = json.rules;
      expect(rules.filter((rule) => rule.status === 'passed').map((rule) => rule.id)).toEqual([]);
      const byId = new Map(rules.map((rule) => [rule.id, rule]));
      const noRecords = /^every success answer was an empty list: no record was checked against the schema/;
      // A retrieval (`[]`) and a list (an empty page): the status shown, the records' shape never.
      for (const id of ['SCHEMA:retrieveAccounts', 'SCHEMA:listAccounts', 'SCHEMA:listTransactions'])
        expect(byId.get(id)).toMatchObject({
          status: 'inconclusive',
          reason: expect.stringMatching(noRecords),
        });
      // Filters over empty lists keep nothing whatever the server does; one page has no `next` to follow.
      for (const id of ['FILTER-IN', 'FILTER-RANGE', 'PAGE-NAV'])
        expect(byId.get(id)).toMatchObject({ status: 'inconclusive' });
      expect(out).toMatch(
        / {2}inconclusive: listAccounts \(GET \/api\/accounts\/\): every success answer was an empty list/,
      );
    } finally {
      await empty.stop();
    }
  });
});

describe('a server that keeps nothing (the simulator with its lists and retrievals emptied)', () => {
  it('the rules about records are inconclusive there, never passed', { timeout: 120_000 }, async () => {
    const keepsNothing = await startAlteringProxy(simulator.baseUrl, { keepsNothing: true });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'ofkit-evidence-'));
      const about = ['EXCHANGE-HISTORY', 'INVOICE-CANCELLED', 'FILTER-IN', 'FILTER-RANGE', 'PAGE-NAV'];
      const rows = ['SCHEMA:listTransactions', 'SCHEMA:retrieveTransactions'];
      await runCheck([
        keepsNothing.baseUrl,
        ...['--keys', `${KEY.id}:${KEY.secret}`, '--seed', '5', '--runs', '3'],
        ...['--rules', [...about, ...rows].join(','), '--report', `json:${join(dir, 'c.json')}`],
      ]);
      const json = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
      const statuses = Object.fromEntries(
        json.rules.map((rule: { id: string; status: string }) => [rule.id, rule.status]),
      );
      expect(statuses).toEqual(Object.fromEntries([...about, ...rows].map((id) => [id, 'inconclusive'])));
    } finally {
      await keepsNothing.stop();
    }
  });
});
