/**
 * API coverage against a fresh simulator: with the state each operation needs built first
 * (records before their details, a paused retrieval before its resume, the payments flows before their
 * charges), every operation shows its success status with a valid body. The schema rows and the
 * payments rules are enough for that, with two runs each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { allRules } from '../src/rules/index.js';
import { isListOperation } from '../src/rules/schema/drawn-list-queries.js';
import { runSuite } from '../src/runner/run-suite.js';
import { selectRules } from '../src/runner/select-rules.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { outcome, type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

const SEED = 1414;
const document = loadApiDocument();
let target: SimulatorTarget;

beforeAll(async () => {
  target = await startSimulatorTarget();
}, 60_000);

afterAll(() => target.stop());

describe('API coverage against the simulator', () => {
  it('every operation exhibits a success status with a valid body', { timeout: 180_000 }, async () => {
    const config = parseTargetConfig({ baseUrl: target.baseUrl });
    const rules = selectRules(allRules(document), ['SCHEMA:*', 'PAY-*']);
    const suite = await runSuite({ config, rules, seed: SEED, runs: 2, document });
    expect(suite.results.filter((r) => r.status === 'failed').map(outcome)).toEqual([]);
    const uncovered = suite.coverage.perOperation.filter((op) => !op.success).map((op) => op.operationId);
    // getConsent included: the fixture link at a Brazilian bank has its open finance consent.
    expect(uncovered).toEqual([]);
    expect(suite.coverage.operations.total).toBe(document.operations.length);
    expect(suite.coverage.operations.covered).toBe(document.operations.length);
    // Per rule: every schema row reached its assertion.
    const schemaRows = suite.results.filter((r) => r.id.startsWith('SCHEMA:'));
    expect(schemaRows.filter((r) => r.reached === 0).map(outcome)).toEqual([]);
    // Every list row saw records (queries drawn from stored ones), so record shapes were validated.
    const listRows = schemaRows.filter((r) => isListOperation(document.operation(r.id.slice(7))!));
    const empty = listRows.filter((r) => !r.notes.some((n) => /^pages with records: [1-9]/.test(n)));
    expect(listRows.length).toBeGreaterThan(30);
    expect(empty.map((r) => `${r.id}: ${r.notes.join(' | ')}`)).toEqual([]);
  });
});
