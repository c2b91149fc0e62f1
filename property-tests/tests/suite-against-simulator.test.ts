/**
 * The suite proven against the reference implementation: the simulator over real HTTP, every
 * cross-cutting rule and every schema conformance row, with a fixed seed and few runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { crossCuttingRules } from '../src/rules/cross-cutting/index.js';
import { schemaConformanceRules } from '../src/rules/schema/operation-conformance.js';
import type { RuleResult } from '../src/runner/run-rule.js';
import { runSuite } from '../src/runner/run-suite.js';
import { parseTargetConfig } from '../src/target/target-config.js';
import { type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

const SEED = 20261102;
const document = loadApiDocument();
let target: SimulatorTarget;
let baseUrl: string;

beforeAll(async () => {
  target = await startSimulatorTarget();
  baseUrl = target.baseUrl;
}, 60_000);

afterAll(() => target.stop());

/** Each failure with its message, so a failing test says which rule broke and how. */
const failures = (results: RuleResult[]) =>
  results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.failure?.message}`);

describe('the conformance suite against the simulator', () => {
  it('every cross-cutting rule holds', { timeout: 120_000 }, async () => {
    const config = parseTargetConfig({ baseUrl });
    const suite = await runSuite({ config, rules: crossCuttingRules, seed: SEED, runs: 5, document });
    expect(failures(suite.results)).toEqual([]);
    expect(suite.results.map((r) => r.id)).toEqual(crossCuttingRules.map((r) => r.id));
    // The simulator has every capability a rule can need, so nothing is skipped.
    expect(suite.capabilities).toMatchObject({
      controlApi: true,
      secondKey: true,
      otherEnvironmentKey: true,
    });
    expect(suite.results.filter((r) => r.status === 'skipped').map((r) => `${r.id}: ${r.reason}`)).toEqual(
      [],
    );
  });

  it('every operation answers a documented status with a valid body', { timeout: 120_000 }, async () => {
    const config = parseTargetConfig({ baseUrl });
    const rules = schemaConformanceRules(document);
    const suite = await runSuite({ config, rules, seed: SEED, runs: 3, document });
    expect(failures(suite.results)).toEqual([]);
    expect(suite.results).toHaveLength(document.operations.length);
  });
});
