/**
 * The data rules against the reference implementation over real HTTP: every rule passes the intact
 * simulator, and a simulator broken on RANGE-365 and ACCOUNT-DELETE-CASCADE fails exactly those two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import { dataRules } from '../../src/rules/data/index.js';
import type { RuleResult } from '../../src/runner/run-rule.js';
import { outcome, runRules, type SimulatorTarget, startSimulatorTarget } from '../simulator-target.js';

const SEED = 20261102;
const RUNS = 2;
const BROKEN = ['RANGE-365', 'ACCOUNT-DELETE-CASCADE'];
const document = loadApiDocument();
const targets: SimulatorTarget[] = [];

let intact: RuleResult[];
let broken: RuleResult[];

beforeAll(async () => {
  const [whole, breaking] = await Promise.all([startSimulatorTarget(), startSimulatorTarget(BROKEN)]);
  targets.push(whole, breaking);
  intact = await runRules(whole, dataRules, { seed: SEED, runs: RUNS, document });
  broken = await runRules(breaking, dataRules, { seed: SEED, runs: RUNS, document });
}, 180_000); // a busy 2-core machine: the runs themselves are bounded by their `runs`

afterAll(async () => {
  await Promise.all(targets.map((target) => target.stop()));
});

describe('the data rules', () => {
  it('are one rule per ID, in the catalogue order', () => {
    expect(dataRules.map((rule) => rule.id)).toEqual([
      'DATA-RETRIEVE',
      'DATA-DETAIL',
      'DATA-DELETE',
      'ACCOUNT-DELETE-CASCADE',
      'EXCHANGE-HISTORY',
      'RANGE-365',
      'TAX-RETENTIONS-500',
      'TAX-RETURNS-MIXED',
      'EMPLOYMENT-METRICS-PREREQ',
      'INVOICE-CANCELLED',
    ]);
    for (const rule of dataRules) expect(rule.title.startsWith(`${rule.id}: `)).toBe(true);
  });

  it('all pass against the simulator', () => {
    expect(intact.map(outcome)).toEqual(dataRules.map((rule) => `${rule.id}: passed`));
  });

  it('fail exactly the broken rules against a simulator broken on them, with a reproduction', () => {
    const failed = broken.filter((result) => result.status === 'failed');
    expect(failed.map((result) => result.id)).toEqual(BROKEN.toSorted((a, b) => order(a) - order(b)));
    expect(broken.filter((result) => result.status === 'skipped').map(outcome)).toEqual([]);
    for (const result of failed) expect(result.failure?.exchanges.length).toBeGreaterThan(0);
    const byId = new Map(failed.map((result) => [result.id, result.failure?.message ?? '']));
    expect(byId.get('RANGE-365')).toMatch(/with a range of \d+ days \(at most 365\).*wanted 400, got 20[01]/);
    expect(byId.get('ACCOUNT-DELETE-CASCADE')).toMatch(/still lists transactions of the deleted account/);
  });
});

function order(id: string): number {
  return dataRules.findIndex((rule) => rule.id === id);
}
