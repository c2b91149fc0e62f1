import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
  FIXED_NOW,
} from '../../test-support/contract-checked-simulator.js';
import { createBusinessAccount, createCustomer } from '../../test-support/payments-test-kit.js';
import { EVENTS_COLLECTION } from '../webhooks/event-log.js';
import { KEPT_ON_RESET } from './index.js';

const SEED = 'state-seed';
const A = 'tenant-a:secret-a';
const B = 'tenant-b:secret-b';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator(SEED);
});
beforeEach(async () => {
  for (const as of [A, B]) expect((await sim.call('POST', '/_ofkit/reset/', { as })).status).toBe(204);
});

const register = (as = A, body: Record<string, unknown> = {}) =>
  sim.call('POST', '/api/links/', {
    as,
    body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret', ...body },
  });
const linkIds = async (as = A) =>
  (await sim.call('GET', '/api/links/', { as })).body.results.map((l: { id: string }) => l.id);
const deleteLink = (id: string, as = A) => sim.call('DELETE', `/api/links/${id}/`, { as });
const exportSnapshot = async (as = A) => (await sim.call('GET', '/_ofkit/snapshot/', { as })).body;
const importSnapshot = (body: unknown, as = A) => sim.call('PUT', '/_ofkit/snapshot/', { as, body });

/** A tenant with something of everything: links, an MFA session, a window, a fault, a switch, a clock. */
async function busyTenant(as = A): Promise<string[]> {
  const ids = [(await register(as)).body.id, (await register(as)).body.id];
  const paused = await register(as, { username: 'mfa-user' });
  expect(paused.status).toBe(428);
  ids.push(paused.body[0].link); // LINK-MFA-428: the 428 created this link (unconfirmed)
  expect((await deleteLink((await register(as)).body.id, as)).status).toBe(204);
  const fault = { operation_id: 'listAccounts', status: 500, count: 3 };
  expect((await sim.call('POST', '/_ofkit/faults/', { as, body: fault })).status).toBe(201);
  const scenario = { scenario: 'institution_requires_token', institution: 'ofsat_mx_fiscal', count: 2 };
  expect((await sim.call('POST', '/_ofkit/scenarios/', { as, body: scenario })).status).toBe(201);
  const clock = { now: '2026-11-03T09:30:00.000Z', frozen: true };
  expect((await sim.call('PUT', '/_ofkit/clock/', { as, body: clock })).status).toBe(200);
  return ids;
}

describe('reset', () => {
  it('forgets links, sessions, faults, scenarios, jobs and the clock offset', async () => {
    const [id] = await busyTenant();
    await sim.call('DELETE', `/api/links/${id}/`, { headers: { 'x-service-request-mode': 'async' } });
    expect((await sim.call('POST', '/_ofkit/reset/')).status).toBe(204);
    expect(await linkIds()).toEqual([]);
    expect((await sim.call('GET', '/_ofkit/faults/')).body).toEqual([]);
    expect((await sim.call('GET', '/_ofkit/scenarios/')).body).toEqual([]);
    const clock = await sim.call('GET', '/_ofkit/clock/');
    expect(clock.body).toEqual({ now: new Date(FIXED_NOW).toISOString(), frozen: false });
    // The async deletion is forgotten; only the daily refresh is armed again (WEBHOOK-DAILY).
    expect(await sim.simulator.tenant('tenant-a').clock.pendingJobs()).toBe(1);
    const snapshot = await exportSnapshot();
    expect(snapshot.state.store.collections).toEqual({});
    expect(snapshot.state.store.windows).toEqual({});
  });

  it('forgets the deletion rate-limit window (DELETE-RATE-LIMIT)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await register()).body.id);
    for (const id of ids.slice(0, 5)) expect((await deleteLink(id)).status).toBe(204);
    expect((await deleteLink(ids[5]!)).status).toBe(429);
    await sim.call('POST', '/_ofkit/reset/');
    expect((await deleteLink((await register()).body.id)).status).toBe(204);
  });

  it('keeps the webhook configuration and forgets the event log (resetTenant description)', async () => {
    const { store } = sim.simulator.tenant('tenant-a');
    const [configCollection] = KEPT_ON_RESET;
    await store.put(configCollection!, { id: 'config', url: 'http://127.0.0.1:9/hooks' });
    await store.put(EVENTS_COLLECTION, { id: 'event-1', status: 'recorded' });
    await sim.call('POST', '/_ofkit/reset/');
    expect(await store.list(configCollection!)).toEqual([{ id: 'config', url: 'http://127.0.0.1:9/hooks' }]);
    expect(await store.list(EVENTS_COLLECTION)).toEqual([]);
  });
});

describe('snapshot round trip', () => {
  it('import then export gives the same document', async () => {
    await busyTenant();
    const snapshot = await exportSnapshot();
    expect(snapshot).toMatchObject({ format: 'ofkit-snapshot/3', clock: { frozen: true } });
    await register();
    await sim.call('POST', '/_ofkit/reset/');
    expect((await importSnapshot(snapshot)).status).toBe(204);
    expect(JSON.stringify(await exportSnapshot())).toBe(JSON.stringify(snapshot));
  });

  it('restores what the tenant had: links, switches, faults, windows and the clock', async () => {
    const ids = await busyTenant();
    const snapshot = await exportSnapshot();
    await sim.call('POST', '/_ofkit/reset/');
    await importSnapshot(snapshot);
    expect(await linkIds()).toEqual(ids);
    expect((await sim.call('GET', '/_ofkit/clock/')).body).toEqual({
      now: '2026-11-03T09:30:00.000Z',
      frozen: true,
    });
    const atSat = await register(A, { institution: 'ofsat_mx_fiscal', username: 'AAA010101AAA' });
    expect(atSat.status).toBe(428);
    expect((await sim.call('GET', '/_ofkit/faults/')).body[0]).toMatchObject({ remaining: 3 });
    // Four of the five deletions a minute are left after the one busyTenant made.
    for (const id of ids) expect((await deleteLink(id)).status).toBe(204);
  });

  it('a snapshot of one tenant imported into another makes its links readable there', async () => {
    const ids = await busyTenant(A);
    const snapshot = await exportSnapshot(A);
    expect((await sim.call('GET', `/api/links/${ids[0]}/`, { as: B })).status).toBe(404);
    expect((await importSnapshot(snapshot, B)).status).toBe(204);
    for (const id of ids) {
      const there = await sim.call('GET', `/api/links/${id}/`, { as: B });
      expect(there.status).toBe(200);
      expect(there.body).toEqual((await sim.call('GET', `/api/links/${id}/`, { as: A })).body);
    }
    expect(await exportSnapshot(B)).toEqual(snapshot);
  });

  it('a snapshot imported into a fresh simulator with the same seed never reuses its ids', async () => {
    const [origin, twin] = await Promise.all([contractCheckedSimulator(), contractCheckedSimulator()]);
    const body = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
    const first = await origin.call('POST', '/api/links/', { body });
    const snapshot = (await origin.call('GET', '/_ofkit/snapshot/')).body;
    expect((await twin.call('PUT', '/_ofkit/snapshot/', { body: snapshot })).status).toBe(204);
    const second = await twin.call('POST', '/api/links/', { body });
    expect(second.body.id).not.toBe(first.body.id);
    expect((await twin.call('GET', '/api/links/')).body.results).toHaveLength(2);
  });

  it('refuses a state it cannot import, naming every field, and changes nothing', async () => {
    const [id] = await busyTenant();
    const snapshot = await exportSnapshot();
    const broken = {
      ...snapshot,
      state: {
        ...snapshot.state,
        links: [],
        faults: [{ id: 'f', operation_id: 'x', status: 503, remaining: 1 }],
      },
    };
    const refused = await importSnapshot(broken);
    expect(refused.status).toBe(400);
    // admin.yaml's Fault: the id is a uuid and the status 408 or 500.
    expect(refused.body.map((e: { field: string }) => e.field).sort()).toEqual([
      'state.faults.0.id',
      'state.faults.0.status',
      'state.links',
    ]);
    const badFormat = await importSnapshot({ ...snapshot, format: 'ofkit-snapshot/4' });
    expect(badFormat.body[0]).toMatchObject({ code: 'invalid', field: 'format' });
    expect(await linkIds()).toContain(id);
  });

  it('an empty state imports as an empty tenant at the snapshot instant', async () => {
    await busyTenant();
    const empty = {
      format: 'ofkit-snapshot/3',
      clock: { now: '2026-12-01T00:00:00.000Z', frozen: true },
      state: {},
    };
    expect((await importSnapshot(empty)).status).toBe(204);
    expect(await linkIds()).toEqual([]);
    expect((await sim.call('GET', '/_ofkit/clock/')).body.now).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('every kind of record a tenant holds imports back', () => {
  it('links with retrieved data, payment customers, accounts and intents: export, import, same document', async () => {
    const link = String((await busyTenant())[0]);
    // busyTenant's fault answers listAccounts: read other resources.
    expect((await sim.call('GET', '/api/owners/', { query: { link } })).status).toBe(200);
    expect((await sim.call('GET', '/api/transactions/', { query: { link } })).status).toBe(200);
    const customer = (await createCustomer(sim)).id;
    const beneficiary = (await createBusinessAccount(sim)).id;
    const intent = { amount: '10.00', description: 'x', provider: 'PIX', beneficiary, customer };
    expect((await sim.call('POST', '/payments/br/payment-intents/', { body: intent })).status).toBe(201);
    const snapshot = await exportSnapshot();
    const imported = await importSnapshot(snapshot, B);
    expect(imported.status, JSON.stringify(imported.body)).toBe(204);
    expect(JSON.stringify(await exportSnapshot(B))).toBe(JSON.stringify(snapshot));
  });
});

describe('tenant isolation', () => {
  it("tenant-b's control calls do not touch tenant-a", async () => {
    const ids = await busyTenant(A);
    const before = await exportSnapshot(A);
    await busyTenant(B);
    const calls: [string, string, unknown?][] = [
      ['POST', '/_ofkit/clock/advance/', { seconds: 3600 }],
      ['POST', '/_ofkit/clock/freeze/'],
      ['PUT', '/_ofkit/clock/', { now: '2027-06-01T00:00:00.000Z', frozen: false }],
      ['DELETE', '/_ofkit/faults/'],
      ['DELETE', '/_ofkit/scenarios/'],
      ['POST', '/_ofkit/faults/', { operation_id: 'listLinks', status: 500 }],
      ['POST', '/_ofkit/scenarios/', { scenario: 'institution_refuses_credentials' }],
      ['PUT', '/_ofkit/snapshot/', { ...before, state: {} }],
      ['POST', '/_ofkit/reset/'],
    ];
    for (const [method, path, body] of calls) {
      const answer = await sim.call(method, path, { as: B, ...(body !== undefined && { body }) });
      expect(answer.status, `${method} ${path}`).toBeLessThan(300);
    }
    expect(await exportSnapshot(A)).toEqual(before);
    expect(await linkIds(A)).toEqual(ids);
    expect((await sim.call('GET', '/api/links/', { as: A })).status).toBe(200);
  });
});
