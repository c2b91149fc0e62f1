/**
 * The PAY-* rules proven against the reference implementation: the simulator over real HTTP (fixed
 * real time, fixed seed, few runs). Every rule holds against the production simulator, PAY-SANDBOX
 * against a sandbox one, and a simulator broken on purpose fails exactly the broken rules (teeth).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import { cnpjOf, cpfOf } from '../../src/rules/payments/brazilian-documents.js';
import { paymentRules } from '../../src/rules/payments/index.js';
import {
  addDays,
  cutoffExamples,
  cutoffInstant,
  cutoffOf,
  describeGmt3,
} from '../../src/rules/payments/payment-dates.js';
import type { RuleResult } from '../../src/runner/run-rule.js';
import { runSuite } from '../../src/runner/run-suite.js';
import { type ConfigSources, parseTargetConfig } from '../../src/target/target-config.js';
import { type SimulatorTarget, startSimulatorTarget } from '../simulator-target.js';

const SEED = 20261102;
const RUNS = 3;
const BROKEN = ['PAY-AUTH-V2-REQUIRED', 'PAY-INTENT-CANCEL-CUTOFF'];
const document = loadApiDocument();
const targets: SimulatorTarget[] = [];

/** A simulator on 127.0.0.1, port 0 (tests/simulator-target.ts); its base URL. */
async function startSimulator(
  options: { environment?: 'production' | 'sandbox'; brokenRules?: string[] } = {},
) {
  const target = await startSimulatorTarget(options.brokenRules, options.environment);
  targets.push(target);
  return target.baseUrl;
}

async function check(baseUrl: string, sources: Omit<ConfigSources, 'baseUrl'> = {}) {
  const config = parseTargetConfig({ baseUrl, ...sources });
  return runSuite({ config, rules: paymentRules, seed: SEED, runs: RUNS, document });
}

const failures = (results: RuleResult[]) =>
  results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.failure?.message}`);
/** Rules skipped, for the environment or otherwise, with their status and reason. */
const skipped = (results: RuleResult[]) =>
  results.filter((r) => r.status.startsWith('skipped')).map((r) => `${r.id}: ${r.status}: ${r.reason}`);

afterAll(async () => {
  await Promise.all(targets.map((target) => target.stop()));
});

describe('the payments rules against the simulator', () => {
  it('every PAY-* rule holds against the production simulator', { timeout: 40_000 }, async () => {
    const suite = await check(await startSimulator());
    expect(failures(suite.results)).toEqual([]);
    expect(suite.results.map((r) => r.id)).toEqual(paymentRules.map((r) => r.id));
    // PAY-SANDBOX needs a sandbox target; every other rule runs (the simulator has the control API).
    expect(skipped(suite.results)).toEqual([
      expect.stringMatching(/^PAY-SANDBOX: skipped \(environment\): needs a sandbox target/),
    ]);
  });

  it('PAY-SANDBOX holds against a sandbox simulator; the initiating rules are skipped there', async () => {
    const baseUrl = await startSimulator({ environment: 'sandbox' });
    const suite = await check(baseUrl, {
      keys: ['ofkit-sandbox-key:ofkit-sandbox-secret'],
      file: { environment: 'sandbox' },
    });
    expect(failures(suite.results)).toEqual([]);
    const passed = suite.results.filter((r) => r.status === 'passed').map((r) => r.id);
    expect(passed).toEqual(['PAY-VERSION-HEADER', 'PAY-BANK-ACCOUNT-DUP', 'PAY-SANDBOX']);
    const initiating = skipped(suite.results);
    expect(initiating).toHaveLength(paymentRules.length - 3);
    for (const reason of initiating)
      expect(reason).toMatch(/: skipped \(environment\): payment initiation is not available in the sandbox/);
  });

  it('a simulator that breaks PAY-AUTH-V2-REQUIRED and PAY-INTENT-CANCEL-CUTOFF fails exactly those', {
    timeout: 40_000,
  }, async () => {
    const baseUrl = await startSimulator({ brokenRules: BROKEN });
    const suite = await check(baseUrl);
    const failed = suite.results.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.id)).toEqual(BROKEN);
    expect(failed[0]?.failure?.message).toMatch(/without the header: wanted 400, got 2\d\d/);
    expect(failed[1]?.failure?.message).toMatch(/after the cutoff the cancel must be an error, got 204/);
    // The shrunk counterexample comes with the requests that reproduce it.
    expect(failed.every((r) => (r.failure?.exchanges.length ?? 0) > 0)).toBe(true);
  });
});

describe('the payments generators', () => {
  it('compute CPF and CNPJ check digits as the Receita Federal does', () => {
    expect(cpfOf('526018159')).toBe('52601815906');
    expect(cnpjOf('628194820001')).toBe('62819482000163');
  });

  it('pin the seconds around the cutoffs of the document, on a month end too', () => {
    const cutoff = cutoffOf(document, 'cancelPaymentIntent')!;
    const moments = cutoffExamples('2026-11-02').map(
      ({ date, offsetSeconds }) =>
        `${date} ${describeGmt3(cutoffInstant(date, cutoff) + offsetSeconds * 1000)}`,
    );
    expect(moments).toEqual([
      '2026-11-09 2026-11-08 23:58:59 GMT-3',
      '2026-11-09 2026-11-08 23:59:00 GMT-3',
      '2026-12-01 2026-11-30 23:58:59 GMT-3',
      '2026-12-01 2026-11-30 23:59:00 GMT-3',
    ]);
    expect(cutoffOf(document, 'cancelPaymentAuthorizationCharge')?.time).toBe('22:00:00');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
