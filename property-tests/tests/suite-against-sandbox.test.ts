/**
 * The whole suite against the simulator in the sandbox environment (`ofkit simulate --environment
 * sandbox`), under --strict: no rule fails or is inconclusive; what the interface spec documents as
 * unavailable in the sandbox (payment initiation, employment metrics) is `skipped (environment)`, never
 * inconclusive; PAY-SANDBOX runs and shows the 403 of every initiation, the documented statuses
 * production cannot show (status-coverage.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../src/document/api-document.js';
import { allRules } from '../src/rules/index.js';
import { runSuite, type SuiteResult } from '../src/runner/run-suite.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';
import { exhibited, SANDBOX_ONLY } from './status-coverage.js';

const SEED = 1414;
const document = loadApiDocument();
let target: SimulatorTarget;
let suite: SuiteResult;

beforeAll(async () => {
  target = await startSimulatorTarget([], 'sandbox');
  // No --environment: GET /api/ names it; the sandbox key is the one the sandbox takes.
  const config = parseTargetConfig({
    baseUrl: target.baseUrl,
    keys: ['ofkit-sandbox-key:ofkit-sandbox-secret'],
  });
  suite = await runSuite({ config, rules: allRules(document), seed: SEED, runs: 2, document, strict: true });
}, 400_000);

afterAll(() => target.stop());

describe('the whole suite against the simulator (sandbox)', () => {
  it('no rule fails or is inconclusive; the environment is detected', () => {
    expect(suite.environment).toBe('sandbox');
    const wrong = suite.results.filter((r) => r.status === 'failed' || r.status === 'inconclusive');
    expect(wrong.map(outcome)).toEqual([]);
    expect(suite.results.find((r) => r.id === 'PAY-SANDBOX')?.status).toBe('passed');
    expect(suite.results.find((r) => r.id === 'MODEL-LINK-LIFECYCLE')?.status).toBe('passed');
  });

  it('payment initiation and employment metrics are skipped (environment), with the reason', () => {
    const skipped = suite.results.filter((r) => r.status === 'skipped (environment)');
    const schemaRows = skipped.filter((r) => r.id.startsWith('SCHEMA:'));
    expect(schemaRows).toHaveLength(22);
    expect(skipped.map((r) => r.id)).toEqual(
      expect.arrayContaining(['PAY-INTENT-CONFIGS', 'PAY-ENROLLMENT', 'SCHEMA:retrieveEmploymentMetrics']),
    );
    for (const result of skipped)
      expect(result.reason, result.id).toMatch(/not available (in the sandbox|for the sandbox institution)/);
    // Everything else answered its success status.
    expect(suite.coverage.operations).toMatchObject({ covered: 125, total: 125 });
  });

  it("shows every initiation's documented 403 (PAY-SANDBOX)", () => {
    expect(exhibited(suite)).toEqual(expect.arrayContaining(SANDBOX_ONLY));
  });
});
