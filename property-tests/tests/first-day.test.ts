/**
 * A server team's first day: `ofkit check` with no config against a server of five operations of its
 * own (five-operation-server.ts: its institutions are none of the simulator's) fails exactly its
 * deliberate faults, each on the rule that names it, and reports the rest as not implemented, with the
 * one line on how to scope the run; with `--operations` the same failures in a short output. The same
 * server without its faults fails nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../tests/test-support/altering-proxy.js';
import { runCheck } from './check-output.js';
import { FIVE_OPERATION_KEY, FIVE_OPERATIONS, startFiveOperationServer } from './five-operation-server.js';

const KEYS = ['--keys', `${FIVE_OPERATION_KEY.id}:${FIVE_OPERATION_KEY.secret}`];
/** Each deliberate fault, and the rule that fails on it. */
const FAULTS = {
  'ignores-fields': 'SCHEMA:listLinks',
  'constant-request-id': 'ERR-BODY',
  'unknown-link-400': 'ERR-404',
} as const;

let faulty: RunningServer;
let sound: RunningServer;

beforeAll(async () => {
  faulty = await startFiveOperationServer(Object.keys(FAULTS) as (keyof typeof FAULTS)[]);
  sound = await startFiveOperationServer();
});

afterAll(async () => {
  await faulty.stop();
  await sound.stop();
});

afterEach(() => vi.restoreAllMocks());

interface Reported {
  id: string;
  status: string;
  reason?: string;
  failure?: { message: string };
}

async function check(baseUrl: string, extra: string[] = []) {
  const path = join(mkdtempSync(join(tmpdir(), 'ofkit-first-day-')), 'report.json');
  const output = await runCheck([
    baseUrl,
    ...KEYS,
    '--seed',
    '3',
    '--runs',
    '3',
    '--report',
    `json:${path}`,
    ...extra,
  ]);
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const rules: Reported[] = report.rules;
  return { ...output, report, rules, byId: new Map(rules.map((rule) => [rule.id, rule])) };
}

const failedIds = (rules: Reported[]) =>
  rules
    .filter((rule) => rule.status === 'failed')
    .map((rule) => rule.id)
    .sort();

describe('ofkit check with no config against a server of five operations', () => {
  it('fails exactly the deliberate faults; the rest is passed or not implemented; one line says how to scope', {
    timeout: 120_000,
  }, async () => {
    const { code, out, report, byId, rules } = await check(faulty.baseUrl);
    expect(code).toBe(1);
    expect(failedIds(rules)).toEqual(Object.values(FAULTS).sort());
    // Each failure names its cause.
    expect(byId.get('SCHEMA:listLinks')?.failure?.message).toMatch(
      /did not honour fields=[a-z_,]+: \/results\/0 holds `[a-z_]+` \(.+\), which fields= does not ask for/,
    );
    expect(byId.get('ERR-BODY')?.failure?.message).toMatch(/with the same request_id/);
    expect(byId.get('ERR-404')?.failure?.message).toMatch(/wanted 404, got 400/);
    // What it lacks is not implemented, never failed: the 404s and 405s of the rest of the API.
    expect(byId.get('LINK-MFA-428')).toMatchObject({
      status: 'inconclusive',
      reason: 'not implemented: PATCH /api/links/',
    });
    expect(byId.get('LINK-DELETE-SYNC')?.reason).toBe('not implemented: DELETE /api/links/{id}/');
    expect(byId.get('DATA-RETRIEVE')?.reason).toMatch(/^not implemented: POST \/api\/accounts\//);
    expect(byId.get('PAY-INTENT-CONFIGS')?.reason).toMatch(
      /^not implemented: POST \/payments\/br\/customers\//,
    );
    for (const id of [
      'ERR-405',
      'ERR-REQUIRED',
      'PAGE-DEFAULT',
      'FILTER-IN',
      'LINK-REGISTER',
      'SCHEMA:getLink',
    ])
      expect(byId.get(id)?.status, id).toBe('passed');
    expect(report.notImplemented).toHaveLength(142);
    // Its registrations use its own institutions, and say so.
    expect(report.registrations.link).toMatch(
      /^the target's bank institution in BR from GET \/api\/institutions\//,
    );
    expect(report.registrations.fiscalCl).toMatch(/lists no fiscal institution in CL/);
    expect(out).toContain(
      'operations: 4 passed, 142 not implemented (never answered a success status), 1 failed',
    );
    const hints = out.split('\n').filter((line) => line.startsWith('hint: '));
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatch(
      / 142 of 147 operations: check what it implements with --operations '[A-Za-z,]+'/,
    );
    for (const id of FIVE_OPERATIONS) expect(hints[0]).toContain(id);
    expect(hints[0]).toContain('--strict');
  });

  it('with --operations naming its five: the same failures, nothing not implemented, a short output', {
    timeout: 120_000,
  }, async () => {
    const whole = await check(faulty.baseUrl);
    vi.restoreAllMocks();
    const scoped = await check(faulty.baseUrl, ['--operations', FIVE_OPERATIONS.join(',')]);
    expect(scoped.code).toBe(1);
    expect(failedIds(scoped.rules)).toEqual(failedIds(whole.rules));
    expect(scoped.rules.filter((rule) => rule.reason?.startsWith('not implemented'))).toEqual([]);
    expect(scoped.out).not.toContain('hint: ');
    expect(scoped.out).toMatch(/^scope: 5 of 147 operations \(--operations\); \d+ rules out of scope/m);
    expect(scoped.out.split('\n').length).toBeLessThan(whole.out.split('\n').length / 2);
    expect(scoped.report.scope).toMatchObject({ operations: 5, includeFrom: '--operations' });
  });

  it('without its faults fails nothing', { timeout: 120_000 }, async () => {
    const { code, rules } = await check(sound.baseUrl);
    expect(failedIds(rules)).toEqual([]);
    expect(code).toBe(0);
  });
});
