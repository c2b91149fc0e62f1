/**
 * The whole suite against the simulator in the sandbox environment (`ofkit simulate --environment
 * sandbox`), run as the CI recipe runs it (`--strict --min-coverage operations=100`, the environment
 * named by GET /api/): exit 0, no rule fails or is inconclusive; what the interface spec documents as
 * unavailable in the sandbox (payment initiation, employment metrics) is `skipped (environment)`, never
 * inconclusive; PAY-SANDBOX runs and shows the 403 of every initiation, the documented statuses
 * production cannot show (status-coverage.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, runCiRecipe } from './check-output.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';
import { exhibited, SANDBOX_ONLY } from './status-coverage.js';

let target: SimulatorTarget;
let suite: CheckReport;

beforeAll(async () => {
  target = await startSimulatorTarget([], 'sandbox');
  // No --environment: GET /api/ names it; the sandbox key is the one the sandbox takes.
  suite = await runCiRecipe(target.baseUrl, ['--keys', 'ofkit-sandbox-key:ofkit-sandbox-secret']);
}, 400_000);

afterAll(() => target.stop());

describe('the whole suite against the simulator (sandbox)', () => {
  it('the CI recipe exits 0; no rule fails or is inconclusive; the environment is detected', () => {
    expect(suite.code, suite.out).toBe(0);
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
