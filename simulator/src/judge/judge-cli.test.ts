/**
 * The judge's command-line side: the flags, the switches they put on every tenant, the automatic probes,
 * the reports written at shutdown and the exit code a CI gate reads.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { BEARER, type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';
import { parseSimulatorConfig } from '../config/simulator-config.js';
import { judgeExitCode } from './judge-all.js';
import { applyStartSwitches, finishJudge } from './judge-cli.js';

describe('ofkit simulate: the judge flags', () => {
  it('parses reports, timing, faults, scenarios and probes, frozen', () => {
    const config = parseSimulatorConfig([
      ...['--judge-report', 'junit:out/judge.xml', '--judge-report', 'json:out/judge.json'],
      ...['--judge-timing', 'order-only', '--fault', 'listAccounts:500:2', '--fault', 'registerLink:400'],
      ...['--scenario', 'institution_requires_token:1', '--webhook-duplicates'],
    ]);
    expect(config.judge).toEqual({
      reports: [
        { kind: 'junit', path: 'out/judge.xml' },
        { kind: 'json', path: 'out/judge.json' },
      ],
      timing: 'order-only',
      faults: [
        { operation_id: 'listAccounts', status: 500, count: 2 },
        { operation_id: 'registerLink', status: 400, count: 1 },
      ],
      scenarios: [{ scenario: 'institution_requires_token', count: 1 }],
      duplicates: true,
      forged: false,
    });
    expect(Object.isFrozen(config.judge)).toBe(true);
    expect(parseSimulatorConfig([]).judge.timing).toBe('real');
  });

  it('refuses what could never work, naming the flag', () => {
    expect(() => parseSimulatorConfig(['--judge-report', 'html:x'])).toThrow(ConfigError);
    expect(() => parseSimulatorConfig(['--judge-timing', 'fast'])).toThrow(/--judge-timing/);
    expect(() => parseSimulatorConfig(['--fault', 'listAccounts:404'])).toThrow(/--fault/);
    expect(() => parseSimulatorConfig(['--fault', 'listAccounts:500:0'])).toThrow(/count/);
    expect(() => parseSimulatorConfig(['--scenario', 'next_refresh_token_required'])).toThrow(/--scenario/);
    expect(() => parseSimulatorConfig(['--webhook-forged'])).toThrow(/--webhook-bearer/);
  });
});

let bench: JudgeBench;
// Starting a simulator (and its Prism fallback) takes seconds on a loaded machine.
beforeAll(async () => {
  bench = await startJudgeBench('judge-cli-seed');
}, 60_000);
afterAll(() => bench.close());

describe('start switches, reports and the gate', () => {
  it('--fault and --scenario act on the next requests of every tenant; the reports say what followed', async () => {
    const config = parseSimulatorConfig([
      '--fault',
      'listInstitutions:500:1',
      '--scenario',
      'institution_requires_token:1',
    ]);
    await applyStartSwitches(bench.simulator, config.judge, ['tenant-a']);
    expect((await bench.api('GET', '/api/institutions/')).status).toBe(500);
    const link = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
    expect((await bench.api('POST', '/api/links/', link)).status).toBe(428);

    const directory = mkdtempSync(join(tmpdir(), 'ofkit-judge-'));
    const reports = parseSimulatorConfig([
      ...['--judge-report', `junit:${join(directory, 'nested', 'judge.xml')}`],
      ...['--judge-report', `json:${join(directory, 'judge.json')}`],
    ]).judge;
    const outcome = await finishJudge(bench.simulator, reports);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.summary).toContain('FAIL CLIENT-RETRY-5XX');
    const junit = readFileSync(join(directory, 'nested', 'judge.xml'), 'utf8');
    expect(junit).toContain(
      '<testsuite name="ofkit client judge: tenant-a (timing real)" tests="12" failures="1"',
    );
    expect(junit).toContain(
      '<failure message="1 of 1 50x or 408 failure(s) not retried as the policy says.">',
    );
    const json = JSON.parse(readFileSync(join(directory, 'judge.json'), 'utf8'));
    expect(
      json.tenants[0].verdicts.find((v: { rule: string }) => v.rule === 'CLIENT-MFA-RESUME').verdict,
    ).toBe('followed');
  });

  it('judgeExitCode: the command failing wins; otherwise a violation fails the gate', () => {
    const report = (verdict: 'followed' | 'violated' | 'not_exercised') => ({
      tenant: 't',
      timing: 'real' as const,
      requests: 1,
      deliveries: 0,
      dropped: 0,
      verdicts: [
        { rule: 'CLIENT-NO-RETRY-4XX' as const, title: '', section: '', verdict, summary: '', evidence: [] },
      ],
    });
    expect(judgeExitCode([report('followed'), report('not_exercised')])).toBe(0);
    expect(judgeExitCode([report('violated')])).toBe(1);
    expect(judgeExitCode([report('followed')], 3)).toBe(3);
    expect(judgeExitCode([])).toBe(0);
  });
});

describe('automatic probes (--webhook-duplicates, --webhook-forged)', () => {
  it('repeat every acknowledged delivery and forge one, without the client asking', async () => {
    const probing = await startJudgeBench('judge-probes-seed', {
      judgeProbes: { duplicates: true, forged: true },
    });
    try {
      await probing.control('PUT', '/_ofkit/webhooks/', { url: probing.receiverUrl, bearer_token: BEARER });
      const link = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
      const id = (await probing.api('POST', '/api/links/', link)).body.id;
      expect((await probing.api('POST', `/api/links/${id}/refresh/`)).status).toBe(202);
      const verdicts = await probing.verdicts();
      const delivered = probing.receiver.seen.length;
      expect(verdicts['CLIENT-WEBHOOK-DUPLICATE']!.summary).toMatch(
        /^\d+ repeated delivery\(ies\), each acknowledged\.$/,
      );
      expect(verdicts['CLIENT-WEBHOOK-BEARER']).toMatchObject({
        verdict: 'followed',
        summary: '1 forged delivery(ies), each refused.',
      });
      // Each event twice, and one forged.
      expect(delivered % 2).toBe(1);
    } finally {
      await probing.close();
    }
  }, 60_000);
});
