/**
 * Each rule's property names its own violation: a server with one realistic fault (a proxy in front of
 * the simulator) fails that rule, with a message that says what broke, and the simulator passes it.
 * These faults are the proxy's for now; they are candidates for the simulator's catalogue of breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { allRules } from '../src/rules/index.js';
import type { RuleResult } from '../src/runner/run-rule.js';
import { runSuite } from '../src/runner/run-suite.js';
import { selectRules } from '../src/runner/select-rules.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import type { BodyAlterations } from './answer-alterations.js';
import { startFaultyProxy } from './faulty-servers.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

const SEED = 23;
const document = loadApiDocument();
let simulator: SimulatorTarget;

beforeAll(async () => {
  simulator = await startSimulatorTarget();
}, 60_000);

afterAll(() => simulator.stop());

async function verdict(baseUrl: string, id: string): Promise<RuleResult> {
  const config = parseTargetConfig({ baseUrl });
  const rules = selectRules(allRules(document), [id]);
  const suite = await runSuite({ config, rules, seed: SEED, runs: 5, document });
  return suite.results[0]!;
}

const FAULTS: [string, BodyAlterations, RegExp][] = [
  [
    'FILTER-LOOKUP',
    { caseSensitiveIcontains: true },
    /__icontains=.* answered \[.*filtering the full list gives/,
  ],
  [
    'TAX-RETURNS-MIXED',
    { taxReturnsWithoutMonthly: true },
    /lists no record of oneOf branch \d, which the retrievals/,
  ],
  ['LINK-MFA-428', { mfaWithoutSession: true }, /the 428 item's `session` \(a string\) is missing/],
  ['PAGE-DEFAULT', { relativePageLinks: true }, /`(next|previous)` is not an absolute URL: \/api\//],
];

describe.each(FAULTS)('%s names its own violation', (id, fault, message) => {
  it('fails a server with the fault, saying what broke', { timeout: 120_000 }, async () => {
    const faulty = await startFaultyProxy(simulator.baseUrl, fault);
    try {
      const result = await verdict(faulty.baseUrl, id);
      expect(result.status, outcome(result)).toBe('failed');
      expect(result.failure?.message).toMatch(message);
    } finally {
      await faulty.stop();
    }
  });

  it('passes the simulator', { timeout: 120_000 }, async () => {
    const result = await verdict(simulator.baseUrl, id);
    expect(result.status, outcome(result)).toBe('passed');
    expect(result.reached).toBeGreaterThan(0);
  });
});
