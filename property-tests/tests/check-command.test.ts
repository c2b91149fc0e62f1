/**
 * `ofkit check` as a person meets it: `--rules` prints the coverage lines of the rules asked only; a
 * failure's reproduction runs as pasted after the one `export` line printed before it (every variable
 * it uses named, none left unset), and says how to bring a local simulator back; a sandbox target skips
 * what the spec documents as unavailable there, PAY-SANDBOX asserts the refusal, and the JUnit and JSON
 * reports carry `skipped (environment)` with its reason.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningServer, startAlteringProxy } from '../../tests/test-support/altering-proxy.js';
import { runCheck } from './check-output.js';
import { type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

let production: SimulatorTarget;
let sandbox: SimulatorTarget;
let leaky: RunningServer;

beforeAll(async () => {
  production = await startSimulatorTarget();
  sandbox = await startSimulatorTarget([], 'sandbox');
  // AUTH-TENANT broken: the second key reads the first key's data.
  leaky = await startAlteringProxy(production.baseUrl, {
    leak: { from: 'ofkit-key-b:ofkit-secret-b', to: 'ofkit-key-a:ofkit-secret-a' },
  });
}, 60_000);

afterAll(async () => {
  await leaky.stop();
  await sandbox.stop();
  await production.stop();
});

afterEach(() => vi.unstubAllEnvs());

const hasCurl = spawnSync('curl', ['--version']).status === 0;

/** The failure's `as curl:` block, as printed (indented, with its line continuations). */
function curlBlock(out: string): string {
  const lines = out.split('\n');
  const start = lines.indexOf('  as curl:');
  const block = lines.slice(start + 1);
  const end = block.findIndex((line) => !line.startsWith('    '));
  return (end === -1 ? block : block.slice(0, end)).join('\n');
}

describe('ofkit check output', () => {
  it('--rules API-ROOT prints no coverage line of the operations it did not ask for', {
    timeout: 60_000,
  }, async () => {
    const { code, out } = await runCheck([production.baseUrl, '--rules', 'API-ROOT', '--seed', '5']);
    expect(code).toBe(0);
    expect(out).toContain('operations: no SCHEMA row selected (--rules)');
    expect(out).not.toMatch(/not implemented:|no success/);
  });

  it.skipIf(!hasCurl)(
    'a failure prints one export line naming every variable its commands use; the curl runs as pasted (skipped where curl is not installed)',
    { timeout: 120_000 },
    async () => {
      vi.stubEnv('OFKIT_URL', leaky.baseUrl);
      vi.stubEnv('OFKIT_SEED', 'suite-tests');
      const { code, out } = await runCheck([
        leaky.baseUrl,
        '--rules',
        'AUTH-TENANT',
        '--seed',
        '14',
        '--runs',
        '3',
      ]);
      expect(code).toBe(1);
      const exports = out.split('\n').filter((line) => line.startsWith('  export '));
      expect(exports).toHaveLength(1);
      const [line] = exports;
      const used = new Set([...out.matchAll(/\$(OFKIT_[A-Z0-9_]+)/g)].map((match) => match[1]!));
      expect([...used]).toContain('OFKIT_KEY_2');
      for (const name of used) expect(line).toContain(`${name}=`);
      // A local target with the control API: how to start the same simulator before replaying.
      const port = new URL(leaky.baseUrl).port;
      expect(out).toContain(
        `  npx ofkit simulate --port ${port} --environment production --seed 'suite-tests'`,
      );
      const script = `set -u\n${line!.trim()}\n${curlBlock(out)}`;
      expect(script).toContain('$OFKIT_KEY_2');
      // Asynchronous: the target answers from this very process.
      const { stdout: answered } = await promisify(execFile)('sh', ['-c', script], { encoding: 'utf8' });
      const statuses = [...answered.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => match[1]);
      expect(statuses.length).toBe([...script.matchAll(/^ {4}curl /gm)].length);
      // The exported keys are the ones the target takes.
      expect(statuses).not.toContain('401');
    },
  );
});

describe('a sandbox target', () => {
  it('--environment sandbox: unavailable operations skipped (environment), PAY-SANDBOX asserts the 403; strict passes', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-sandbox-'));
    const rules =
      'PAY-SANDBOX,PAY-INTENT-CONFIGS,SCHEMA:createPaymentIntent,SCHEMA:listPaymentIntents,SCHEMA:retrieveEmploymentMetrics';
    const { code, out } = await runCheck([
      sandbox.baseUrl,
      ...['--environment', 'sandbox', '--strict', '--rules', rules, '--seed', '8', '--runs', '2'],
      ...['--report', `junit:${join(dir, 'c.xml')}`, '--report', `json:${join(dir, 'c.json')}`],
    ]);
    expect(code, out).toBe(0);
    expect(out).toContain('environment: sandbox (as configured)');
    const json = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    const status = (id: string) => json.rules.find((rule: { id: string }) => rule.id === id);
    expect(status('PAY-SANDBOX')).toMatchObject({ status: 'passed' });
    for (const id of ['PAY-INTENT-CONFIGS', 'SCHEMA:createPaymentIntent']) {
      expect(status(id)).toMatchObject({
        status: 'skipped (environment)',
        reason: expect.stringContaining('payment initiation is not available in the sandbox'),
      });
    }
    expect(status('SCHEMA:retrieveEmploymentMetrics')).toMatchObject({
      status: 'skipped (environment)',
      reason: expect.stringContaining('employment metrics'),
    });
    expect(status('SCHEMA:listPaymentIntents')).toMatchObject({ status: 'passed' });
    expect(json.summary['skipped (environment)']).toBe(3);
    const xml = readFileSync(join(dir, 'c.xml'), 'utf8');
    expect(xml).toMatch(
      /<skipped message="skipped \(environment\): payment initiation is not available in the sandbox/,
    );
  });

  it('is detected through GET /api/ when no --environment is given', { timeout: 60_000 }, async () => {
    const { code, out } = await runCheck([
      sandbox.baseUrl,
      ...['--keys', 'ofkit-sandbox-key:ofkit-sandbox-secret', '--rules', 'PAY-SANDBOX', '--seed', '8'],
    ]);
    expect(code, out).toBe(0);
    expect(out).toContain('environment: sandbox (GET /api/ says so)');
    expect(out).toMatch(/PAY-SANDBOX\s+passed/);
  });
});
