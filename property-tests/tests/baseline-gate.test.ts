/**
 * `--baseline`: a team that adopts the gate with a known failure keeps CI green on it and red on what
 * gets worse. Against the server of five operations: a run writes the baseline (`--write-baseline`) with
 * one fault; the same fault passes the gate; a new fault fails it (a rule that passed there), and so does
 * the known rule failing another way (a signature the baseline does not have); a fault fixed is said.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../tests/test-support/altering-proxy.js';
import { runCheck } from './check-output.js';
import {
  type Fault,
  FIVE_OPERATION_KEY,
  FIVE_OPERATIONS,
  startFiveOperationServer,
} from './five-operation-server.js';

const servers = new Map<string, RunningServer>();
const baseline = join(mkdtempSync(join(tmpdir(), 'ofkit-baseline-')), 'baseline.json');

async function check(faults: Fault[], extra: string[]) {
  const server = servers.get(faults.join(','))!;
  return runCheck([
    server.baseUrl,
    ...['--keys', `${FIVE_OPERATION_KEY.id}:${FIVE_OPERATION_KEY.secret}`],
    ...['--operations', FIVE_OPERATIONS.join(','), '--seed', '3', '--runs', '2', ...extra],
  ]);
}

beforeAll(async () => {
  for (const faults of [
    ['unknown-link-400'],
    ['unknown-link-400', 'constant-request-id'],
    ['unknown-link-410'],
    [],
  ] as Fault[][])
    servers.set(faults.join(','), await startFiveOperationServer(faults));
  const written = await check(['unknown-link-400'], ['--write-baseline', baseline]);
  vi.restoreAllMocks();
  expect(written.code).toBe(1);
  expect(written.out).toContain(`json report: ${baseline}`);
});

afterAll(async () => {
  for (const server of servers.values()) await server.stop();
});

afterEach(() => vi.restoreAllMocks());

describe('ofkit check --baseline', () => {
  it('passes on the failure the baseline knows', { timeout: 60_000 }, async () => {
    const { code, out } = await check(['unknown-link-400'], ['--baseline', baseline]);
    expect(out).toMatch(/ERR-404\s+failed/);
    expect(out).toContain(`baseline ${baseline}: 1 failing rules known there, 0 regressions`);
    expect(code).toBe(0);
  });

  it('fails on a rule that passed there', { timeout: 60_000 }, async () => {
    const { code, out } = await check(['unknown-link-400', 'constant-request-id'], ['--baseline', baseline]);
    expect(out).toContain('REGRESSION ERR-BODY: passed in the baseline, fails now');
    expect(out).not.toContain('REGRESSION ERR-404');
    expect(code).toBe(1);
  });

  it('fails on the known rule failing another way (a new signature)', { timeout: 60_000 }, async () => {
    const { code, out } = await check(['unknown-link-410'], ['--baseline', baseline]);
    expect(out).toMatch(
      /REGRESSION ERR-404: a failure the baseline does not have: ERR-404 \| getLink \| .*got HTTP410/,
    );
    expect(code).toBe(1);
  });

  it('says what improved', { timeout: 60_000 }, async () => {
    const { code, out } = await check([], ['--baseline', baseline]);
    expect(out).toContain('improved since the baseline (failed there, not now): ERR-404');
    expect(code).toBe(0);
  });

  it('refuses, before any rule runs, a baseline that is no report of ofkit check', async () => {
    const { code, err } = await check([], ['--baseline', join(tmpdir(), 'no-such-baseline.json')]);
    expect(code).toBe(2);
    expect(err).toMatch(/Cannot read the baseline/);
  });
});
