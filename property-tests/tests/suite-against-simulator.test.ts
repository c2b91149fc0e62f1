/**
 * The suite proven against the reference implementation: the simulator over real HTTP, every
 * cross-cutting rule and every schema conformance row, with a fixed seed and few runs.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { createHttpServer, listen } from '../../simulator/src/server/http-adapter.js';
import { createSimulator } from '../../simulator/src/simulator.js';
import { loadApiDocument } from '../src/document/api-document.js';
import { crossCuttingRules } from '../src/rules/cross-cutting/index.js';
import { schemaConformanceRules } from '../src/rules/schema/operation-conformance.js';
import type { RuleResult } from '../src/runner/run-rule.js';
import { runSuite } from '../src/runner/run-suite.js';
import { parseTargetConfig } from '../src/target/target-config.js';

const FIXED_NOW = Date.parse('2026-11-02T12:00:00.000Z');
const SEED = 20261102;
const document = loadApiDocument();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const simulator = await createSimulator({
    seed: 'conformance-suite',
    environment: 'production',
    keys: DEFAULT_KEYS,
    realTime: () => FIXED_NOW,
  });
  server = createHttpServer({ handle: simulator.handle, maxBodyBytes: 1_048_576 });
  baseUrl = await listen(server, 0, '127.0.0.1');
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** Each failure with its message, so a failing test says which rule broke and how. */
const failures = (results: RuleResult[]) =>
  results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.failure?.message}`);

describe('the conformance suite against the simulator', () => {
  it('every cross-cutting rule holds', { timeout: 30_000 }, async () => {
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

  it('every operation answers a documented status with a valid body', { timeout: 30_000 }, async () => {
    const config = parseTargetConfig({ baseUrl });
    const rules = schemaConformanceRules(document);
    const suite = await runSuite({ config, rules, seed: SEED, runs: 3, document });
    expect(failures(suite.results)).toEqual([]);
    expect(suite.results).toHaveLength(document.operations.length);
  });
});
