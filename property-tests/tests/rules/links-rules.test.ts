/**
 * The links-area rules against the simulator over HTTP: every rule passes the intact simulator (none is
 * skipped: it has the control API), and a simulator with LINK-REFRESH-COOLDOWN and DELETE-RATE-LIMIT
 * broken on purpose fails exactly those two (teeth).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import { linkRules } from '../../src/rules/links/index.js';
import { outcome, runRules, type SimulatorTarget, startSimulatorTarget } from '../simulator-target.js';

const document = loadApiDocument();
const SEED = 20261102;
const RUNS = 3;
const BROKEN = ['LINK-REFRESH-COOLDOWN', 'DELETE-RATE-LIMIT'];
const targets: SimulatorTarget[] = [];

async function runAgainst(brokenRules: readonly string[] = []) {
  const target = await startSimulatorTarget(brokenRules);
  targets.push(target);
  return runRules(target, linkRules, { seed: SEED, runs: RUNS, document });
}

afterEach(async () => {
  for (const target of targets.splice(0)) await target.stop();
});

describe('links rules against the simulator', () => {
  it('every rule passes the intact simulator', { timeout: 30_000 }, async () => {
    const results = await runAgainst();
    expect(results.map(outcome)).toEqual(linkRules.map((rule) => `${rule.id}: passed`));
  });

  it('a simulator without the cooldown and the deletion limit fails exactly those rules', {
    timeout: 30_000,
  }, async () => {
    const results = await runAgainst(BROKEN);
    const failed = results.filter((result) => result.status === 'failed');
    expect(failed.map((result) => result.id).sort()).toEqual([...BROKEN].sort());
    const messages = Object.fromEntries(failed.map((result) => [result.id, result.failure?.message]));
    expect(messages['LINK-REFRESH-COOLDOWN']).toMatch(/wanted 409, got 202/);
    expect(messages['DELETE-RATE-LIMIT']).toMatch(/wanted 429, got 204/);
    expect(failed.every((result) => (result.failure?.exchanges.length ?? 0) > 0)).toBe(true);
  });
});
