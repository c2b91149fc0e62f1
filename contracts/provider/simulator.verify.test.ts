/**
 * The reference pacts (written by the consumer run) verified against the simulator on port 0; and the
 * verification's teeth: a provider that breaks LINK-REFRESH-COOLDOWN fails it, and a provider without
 * the control API gets the states that need it reported as unverifiable, not passed.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pact } from '../../scripts/cli/pact.js';
import { startSimulator as startInProcess } from '../../simulator/src/start-simulator.js';
import { startAlteringProxy } from '../../tests/test-support/altering-proxy.js';
import { pactFileOfRun } from '../consumer/reference-pact.js';
import { describeVerification, type VerificationReport } from './verification-report.js';
import { verifyPacts } from './verify-pacts.js';

const closers: (() => Promise<void>)[] = [];

async function startSimulator(brokenRules: string[] = []): Promise<string> {
  const simulator = await startInProcess({ seed: 'pact-verify', brokenRules });
  closers.push(simulator.close);
  return simulator.url;
}

const statusOf = (report: VerificationReport) =>
  Object.fromEntries(report.outcomes.map((outcome) => [outcome.description, outcome.status]));

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

describe('pact verify against the simulator', () => {
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await startSimulator();
  });

  it('passes every interaction of the reference pacts, with every provider state set up', async () => {
    const report = await verifyPacts({ baseUrl, pacts: [pactFileOfRun()], logLevel: 'error' });
    expect(report.controlApi.available, describeVerification(report)).toBe(true);
    expect(report.outcomes.length).toBeGreaterThanOrEqual(20);
    expect(
      report.outcomes.filter((outcome) => outcome.status !== 'passed'),
      describeVerification(report),
    ).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('exits 0 from the CLI and writes a JUnit report', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ofkit-pact-'));
    const pactFile = join(directory, 'institutions.json');
    const reference = JSON.parse(await readFile(pactFileOfRun(), 'utf8'));
    reference.interactions = reference.interactions.filter((i: { description: string }) =>
      i.description.includes('institutions'),
    );
    await writeFile(pactFile, JSON.stringify(reference));
    const junit = join(directory, 'verify.xml');
    const code = await pact([
      'verify',
      baseUrl,
      '--pacts',
      pactFile,
      '--report',
      `junit:${junit}`,
      '--log-level',
      'error',
    ]);
    expect(code).toBe(0);
    expect(await readFile(junit, 'utf8')).toContain('tests="1" failures="0" skipped="0"');
  });
});

describe('LINK-REFRESH-COOLDOWN broken on purpose', () => {
  it('fails verification: the cooldown interactions get 202 instead of 409', async () => {
    const simulator = await startSimulator(['LINK-REFRESH-COOLDOWN']);
    const report = await verifyPacts({ baseUrl: simulator, pacts: [pactFileOfRun()], logLevel: 'error' });
    const failed = report.outcomes.filter((outcome) => outcome.status === 'failed');
    expect(failed.map((outcome) => outcome.description).sort()).toEqual([
      'a refresh of a link, when the link was just refreshed',
      'a refresh of a link, when the link was refreshed 5 minutes ago',
    ]);
    expect(failed[0]?.reasons.join('\n')).toContain('expected 409 but was 202');
    expect(report.ok).toBe(false);
  });
});

describe('a provider without the control API', () => {
  it('reports the states that need it as unverifiable, and verifies the rest', async () => {
    const simulator = await startSimulator();
    const proxy = await startAlteringProxy(simulator, {
      answer({ path }) {
        if (!path.startsWith('/_ofkit/')) return undefined;
        const body = JSON.stringify([{ request_id: 'proxy', message: 'Not found.', code: 'not_found' }]);
        return { status: 404, headers: { 'content-type': 'application/json' }, body };
      },
    });
    closers.push(proxy.stop);
    const report = await verifyPacts({ baseUrl: proxy.baseUrl, pacts: [pactFileOfRun()], logLevel: 'error' });
    const statuses = statusOf(report);
    const unverifiable = Object.keys(statuses).filter(
      (description) => statuses[description] === 'unverifiable',
    );
    expect(unverifiable.sort()).toEqual([
      'a refresh of a link, when the link was refreshed 11 minutes ago',
      'a refresh of a link, when the link was refreshed 5 minutes ago',
      'a registration of a recurrent link at an institution that asks for a token',
      'a resumption of a registration with the MFA token',
      'a sixth synchronous deletion of a link within a minute',
    ]);
    const reasons = report.outcomes.flatMap((outcome) => outcome.reasons).join('\n');
    expect(reasons).toContain('GET /_ofkit/clock/ answered 404');
    expect(
      Object.values(statuses).filter((status) => status === 'failed'),
      describeVerification(report),
    ).toEqual([]);
    expect(report.ok).toBe(false);
  });
});
