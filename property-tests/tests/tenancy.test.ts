/**
 * Nothing lost by checking: run against a simulator whose tenant holds a link someone else registered (a
 * team's long-lived simulator), `ofkit check` does not reset it: it says so in one line, leaves the
 * tenant's control API alone (the rules that need it are inconclusive, not skipped; the others run) and
 * the link is still there after the run. With `--reset` it resets the tenant first, says so, and the
 * rule runs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCheck } from './check-output.js';
import { type SimulatorTarget, startSimulatorTarget } from './simulator-target.js';

const AUTH = `Basic ${Buffer.from('ofkit-key-a:ofkit-secret-a').toString('base64')}`;
let simulator: SimulatorTarget;

beforeAll(async () => {
  simulator = await startSimulatorTarget();
}, 60_000);

afterAll(() => simulator.stop());

afterEach(() => vi.restoreAllMocks());

async function api(method: string, path: string, body?: unknown) {
  const answer = await fetch(`${simulator.baseUrl}${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, json: (await answer.json().catch(() => ({}))) as { id?: string } };
}

describe('a tenant that holds state the run did not create', () => {
  it('is not reset without --reset: one line says so, the control API rules are inconclusive, the link stays', {
    timeout: 60_000,
  }, async () => {
    const registration = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
    const theirs = await api('POST', '/api/links/', registration);
    expect(theirs.status).toBe(201);
    const argv = [simulator.baseUrl, '--rules', 'ERR-500-408,API-ROOT', '--seed', '4', '--runs', '2'];
    const kept = await runCheck(argv);
    expect(kept.out).toMatch(
      /^tenant: the tenant holds 1 links this run did not create: not reset, .*--reset resets it first/m,
    );
    expect(kept.out).toMatch(
      /ERR-500-408\s+inconclusive\s+0\s+0\s+[\d.]+ s\s+needs control-api: present, but left alone/,
    );
    expect(kept.out).toMatch(/API-ROOT\s+passed/);
    expect(kept.code).toBe(0);
    expect((await api('GET', `/api/links/${theirs.json.id}/`)).status).toBe(200);

    vi.restoreAllMocks();
    const reset = await runCheck([...argv, '--reset']);
    expect(reset.out).toMatch(
      /^tenant: the tenant was reset before the run \(--reset\): its \d+ links were forgotten/m,
    );
    expect(reset.out).toMatch(/ERR-500-408\s+passed/);
    expect((await api('GET', `/api/links/${theirs.json.id}/`)).status).toBe(404);
  });
});
