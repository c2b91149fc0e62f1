/**
 * The whole suite proven against the reference implementation, the simulator in production over real
 * HTTP, under --strict (no rule inconclusive), with a fixed seed and few random runs (every rule's
 * exhaustive examples run on top): no rule fails, every operation answers a success status with a valid
 * body, every list row validates records, and every documented status is exhibited but those only the
 * sandbox shows (PAY-SANDBOX's 403) and those the simulator never answers (listed below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../src/document/api-document.js';
import { allRules } from '../src/rules/index.js';
import { isListOperation } from '../src/rules/schema/drawn-list-queries.js';
import { runSuite, type SuiteResult } from '../src/runner/run-suite.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';
import { SANDBOX_ONLY, SIMULATOR_NEVER_ANSWERS, unexhibited } from './status-coverage.js';

const SEED = 1414;
const document = loadApiDocument();
let target: SimulatorTarget;
let suite: SuiteResult;

beforeAll(async () => {
  target = await startSimulatorTarget();
  const config = parseTargetConfig({ baseUrl: target.baseUrl });
  suite = await runSuite({ config, rules: allRules(document), seed: SEED, runs: 2, document, strict: true });
}, 300_000);

afterAll(() => target.stop());

describe('the whole suite against the simulator (production)', () => {
  it('every rule passes; only PAY-SANDBOX is skipped, for the environment', () => {
    const verdicts = suite.results.filter((r) => r.status !== 'passed').map(outcome);
    expect(verdicts).toEqual([expect.stringMatching(/^PAY-SANDBOX: skipped \(environment\)/)]);
    // The simulator has every capability a rule can need.
    expect(suite.capabilities).toMatchObject({
      controlApi: true,
      secondKey: true,
      otherEnvironmentKey: true,
    });
    expect(suite.environment).toBe('production');
  });

  it('every operation answers a success status with a valid body; every list row saw records', () => {
    const uncovered = suite.coverage.perOperation.filter((op) => !op.success).map((op) => op.operationId);
    expect(uncovered).toEqual([]);
    expect(suite.coverage.operations).toMatchObject({ covered: 147, total: 147 });
    const rows = suite.results.filter((r) => r.id.startsWith('SCHEMA:'));
    expect(rows).toHaveLength(document.operations.length);
    const lists = rows.filter((r) => isListOperation(document.operation(r.operationId!)!));
    const empty = lists.filter((r) => !r.notes.some((n) => /^pages with records: [1-9]/.test(n)));
    expect(lists.length).toBeGreaterThan(30);
    expect(empty.map((r) => `${r.id}: ${r.notes.join(' | ')}`)).toEqual([]);
  });

  it('every documented status is exhibited with a valid body but the sandbox-only and simulator-gap ones', () => {
    expect(unexhibited(suite).sort()).toEqual([...SANDBOX_ONLY, ...SIMULATOR_NEVER_ANSWERS].sort());
  });
});
