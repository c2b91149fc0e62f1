/**
 * The whole suite proven against the reference implementation, the simulator in production over real
 * HTTP, run as the CI recipe of examples/ci/server-repo.yml runs it (`ofkit check URL --strict
 * --min-coverage operations=100`), with a fixed seed and few random runs (every rule's exhaustive
 * examples run on top): exit 0, no rule fails or is inconclusive, every operation answers a success
 * status with a valid body, every list row validates records, and every documented status is exhibited
 * but those only the sandbox shows (PAY-SANDBOX's 403): with the sandbox's run, 100% of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { isListOperation } from '../src/rules/schema/drawn-list-queries.js';
import { type CheckReport, runCiRecipe } from './check-output.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';
import { SANDBOX_ONLY, unexhibited } from './status-coverage.js';

const document = loadApiDocument();
let target: SimulatorTarget;
let suite: CheckReport;

beforeAll(async () => {
  target = await startSimulatorTarget();
  suite = await runCiRecipe(target.baseUrl);
}, 300_000);

afterAll(() => target.stop());

describe('the whole suite against the simulator (production)', () => {
  it('the CI recipe exits 0; every rule passes; only PAY-SANDBOX is skipped, for the environment', () => {
    expect(suite.code, suite.out).toBe(0);
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

  it('every documented status is exhibited with a valid body but the sandbox-only ones', () => {
    expect(unexhibited(suite).sort()).toEqual([...SANDBOX_ONLY].sort());
  });
});
