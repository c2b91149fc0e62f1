import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
  FIXED_NOW,
} from '../../test-support/contract-checked-simulator.js';

/** A fake machine time the tests move by hand (never the wall clock). */
let realTime = FIXED_NOW;
let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator('clock-seed', { realTime: () => realTime });
});
beforeEach(async () => {
  realTime = FIXED_NOW;
  expect((await sim.call('POST', '/_ofkit/reset/')).status).toBe(204);
});

const iso = (ms: number) => new Date(ms).toISOString();
const clock = () => sim.call('GET', '/_ofkit/clock/');
const setClock = (body: Record<string, unknown>) => sim.call('PUT', '/_ofkit/clock/', { body });
const advance = (seconds: number) => sim.call('POST', '/_ofkit/clock/advance/', { body: { seconds } });

/** LINK-DELETE-ASYNC schedules the deletion as a job on the tenant's clock, a second later. */
async function linkDeletedAsync(): Promise<string> {
  const link = await sim.call('POST', '/api/links/', {
    body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
  });
  const accepted = await sim.call('DELETE', `/api/links/${link.body.id}/`, {
    headers: { 'x-service-request-mode': 'async' },
  });
  expect(accepted.status).toBe(202);
  return link.body.id;
}

describe('clock', () => {
  it('follows real time until told otherwise', async () => {
    expect((await clock()).body).toEqual({ now: iso(FIXED_NOW), frozen: false });
    realTime += 1500;
    expect((await clock()).body.now).toBe(iso(FIXED_NOW + 1500));
  });

  it('advance runs a scheduled job that falls due, and says how many ran', async () => {
    const id = await linkDeletedAsync();
    const early = await advance(0.5);
    expect(early.body).toEqual({ now: iso(FIXED_NOW + 500), frozen: false, jobs_run: 0 });
    expect((await sim.call('GET', `/api/links/${id}/`)).status).toBe(200);
    const due = await advance(600);
    expect(due.body).toEqual({ now: iso(FIXED_NOW + 600_500), frozen: false, jobs_run: 1 });
    expect((await sim.call('GET', `/api/links/${id}/`)).status).toBe(404);
  });

  it('advance runs every due job in time order, the clock standing at each job', async () => {
    const seen: [string, string][] = [];
    const tenantClock = sim.simulator.tenant('tenant-a').clock;
    sim.simulator.jobs.define('clock test', async (_tenant, args) => {
      seen.push([String(args.label), iso(tenantClock.now())]);
    });
    for (const [label, at] of [
      ['c', 30_000],
      ['a', 10_000],
      ['b', 20_000],
      ['late', 90_000],
    ] as const) {
      await tenantClock.schedule(FIXED_NOW + at, 'clock test', { label });
    }
    expect((await advance(60)).body.jobs_run).toBe(3);
    expect(seen).toEqual([
      ['a', iso(FIXED_NOW + 10_000)],
      ['b', iso(FIXED_NOW + 20_000)],
      ['c', iso(FIXED_NOW + 30_000)],
    ]);
  });

  it('set forward runs the due jobs; set backwards runs none', async () => {
    const id = await linkDeletedAsync();
    const back = await setClock({ now: '2026-01-01T00:00:00.000Z' });
    expect(back.body).toEqual({ now: '2026-01-01T00:00:00.000Z', frozen: false, jobs_run: 0 });
    expect((await sim.call('GET', `/api/links/${id}/`)).status).toBe(200);
    const forward = await setClock({ now: iso(FIXED_NOW + 5000), frozen: true });
    // The async deletion, and (WEBHOOK-DAILY) each day's refresh from 2026-01-01 to 2026-11-02: 306.
    expect(forward.body).toEqual({ now: iso(FIXED_NOW + 5000), frozen: true, jobs_run: 307 });
    expect((await sim.call('GET', `/api/links/${id}/`)).status).toBe(404);
  });

  it('freeze stops the time; PUT frozen false lets it follow real time from there', async () => {
    const frozen = await sim.call('POST', '/_ofkit/clock/freeze/');
    expect(frozen.body).toEqual({ now: iso(FIXED_NOW), frozen: true });
    realTime += 60_000;
    expect((await clock()).body).toEqual({ now: iso(FIXED_NOW), frozen: true });
    expect((await advance(10)).body.now).toBe(iso(FIXED_NOW + 10_000));
    const thawed = await setClock({ frozen: false });
    expect(thawed.body).toEqual({ now: iso(FIXED_NOW + 10_000), frozen: false, jobs_run: 0 });
    realTime += 2000;
    expect((await clock()).body.now).toBe(iso(FIXED_NOW + 12_000));
  });

  it('set with a new instant and no `frozen` keeps the clock frozen', async () => {
    await sim.call('POST', '/_ofkit/clock/freeze/');
    const moved = await setClock({ now: '2027-03-01T08:00:00.000Z' });
    expect(moved.body).toMatchObject({ now: '2027-03-01T08:00:00.000Z', frozen: true });
    realTime += 5000;
    expect((await clock()).body.now).toBe('2027-03-01T08:00:00.000Z');
  });

  it('refuses nonsense with the field named, in the error format', async () => {
    for (const seconds of [-5, 0, 31_622_401]) {
      const refused = await advance(seconds);
      expect(refused.status).toBe(400);
      expect(refused.body[0]).toMatchObject({ code: 'invalid', field: 'seconds' });
    }
    const missing = await sim.call('POST', '/_ofkit/clock/advance/', { body: {} });
    expect(missing.body[0]).toMatchObject({ code: 'required', field: 'seconds' });
    const notInstant = await setClock({ now: 'tomorrow' });
    expect(notInstant.body[0]).toMatchObject({ code: 'invalid', field: 'now' });
    expect((await setClock({})).status).toBe(400);
    expect((await setClock({ frozen: true, speed: 2 })).body[0]).toMatchObject({ code: 'unknown_field' });
    expect((await clock()).body).toEqual({ now: iso(FIXED_NOW), frozen: false });
  });

  it('refuses to move forward more than 366 days in one call, set as advance (README "Limits")', async () => {
    const far = await setClock({ now: '9999-12-31T23:59:59.999Z' });
    expect(far.status).toBe(400);
    expect(far.body[0]).toMatchObject({ code: 'invalid', field: 'now' });
    expect((await setClock({ now: iso(FIXED_NOW + 366 * 86_400_000) })).status).toBe(200);
    expect((await setClock({ now: '2001-01-01T00:00:00.000Z' })).status).toBe(200);
    expect((await clock()).body.now).toBe('2001-01-01T00:00:00.000Z');
  });

  it("refuses to advance past the clock's last instant", async () => {
    // Only an import reaches that far: a set moves at most 366 days.
    const snapshot = { format: 'ofkit-snapshot/1', clock: { now: '9899-12-31T00:00:00.000Z', frozen: true } };
    expect((await sim.call('PUT', '/_ofkit/snapshot/', { body: { ...snapshot, state: {} } })).status).toBe(
      204,
    );
    const refused = await advance(2 * 86_400);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'invalid', field: 'seconds' });
    expect((await clock()).body.now).toBe('9899-12-31T00:00:00.000Z');
  });
});
