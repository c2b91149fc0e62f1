/**
 * The forward-compatibility storm: with a tenant's storm on, its 2xx answers and its deliveries are
 * what a newer API version may send (a member it does not know in every object, the members in another
 * order, longer free text, new classification values, timestamps of another precision, new event
 * codes), marked with `x-ofkit-storm`, and nothing a client acts on or sends back changes. Errors,
 * the control API and other tenants are untouched; a reset returns to the default.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../../test-support/api-harness.js';
import { contractCheckedSimulator } from '../../test-support/contract-checked-simulator.js';
import { MemoryStore } from '../store/memory-store.js';
import { newEnumValue, otherPrecision, stormValue } from './storm-values.js';

const TENANT_B = 'tenant-b:secret-b';
const NEW_MEMBERS = ['provider_metadata', 'classification_details', 'extra_attributes', 'internal_reference'];
const MARK = 'forward-compatibility';

/**
 * Where `stormed` is not `plain` as a newer version may send it: each object keeps every member, in
 * reverse order after one new member; each string is the same, longer, a new enumeration value or the
 * same instant; every other value is equal.
 */
function differences(plain: unknown, stormed: unknown, at = '$'): string[] {
  if (Array.isArray(plain)) {
    if (!Array.isArray(stormed) || stormed.length !== plain.length) return [`${at}: not the same array`];
    return plain.flatMap((item, i) => differences(item, stormed[i], `${at}[${i}]`));
  }
  if (plain !== null && typeof plain === 'object') {
    const keys = Object.keys(plain);
    const got = Object.keys(stormed as object);
    const added = got.filter((key) => !keys.includes(key));
    if (added.length !== 1 || !NEW_MEMBERS.includes(added[0] as string)) return [`${at}: added ${added}`];
    if (got.join() !== [added[0], ...keys.reverse()].join()) return [`${at}: order ${got}`];
    return keys.flatMap((key) =>
      differences(
        (plain as Record<string, unknown>)[key],
        (stormed as Record<string, unknown>)[key],
        `${at}.${key}`,
      ),
    );
  }
  if (typeof plain === 'string' && typeof stormed === 'string') {
    const sameInstant = /T\d\d:/.test(plain) && Date.parse(plain) === Date.parse(stormed);
    const fine = stormed === plain || stormed.startsWith(`${plain} `) || stormed === newEnumValue(plain);
    return fine || sameInstant ? [] : [`${at}: ${plain} -> ${stormed}`];
  }
  return Object.is(plain, stormed) ? [] : [`${at}: ${String(plain)} -> ${String(stormed)}`];
}

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness();
});
afterEach(() => api.close());

const storm = (enabled: boolean | null, as?: string) =>
  api.sim.call('PUT', '/_ofkit/storm/', { body: { enabled }, ...(as && { as }) });

describe('the forward-compatibility storm', () => {
  it('answers as a newer version: every object widened and reordered, nothing removed or changed', async () => {
    const link = await api.register();
    const paths = [`/api/links/${link.id}/`, '/api/accounts/', '/api/transactions/'];
    const query = { link: link.id };
    const plain = await Promise.all(paths.map((path) => api.sim.call('GET', path, { query })));
    expect((await storm(true)).body).toEqual({ enabled: true, by_default: false });
    for (const [i, path] of paths.entries()) {
      const stormed = await api.sim.call('GET', path, { query });
      expect(stormed.status).toBe(200);
      expect(stormed.headers['x-ofkit-storm']).toBe(MARK);
      expect(plain[i]?.headers['x-ofkit-storm']).toBeUndefined();
      expect(differences(plain[i]?.body, stormed.body)).toEqual([]);
      expect(JSON.stringify(stormed.body)).not.toEqual(JSON.stringify(plain[i]?.body));
    }
  });
  it('errors, the control API and other tenants keep their shape; a reset returns to the default', async () => {
    await storm(true);
    const missing = await api.sim.call('GET', '/api/links/00000000-0000-4000-8000-000000000000/');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-ofkit-storm']).toBeUndefined();
    expect((await api.sim.call('GET', '/_ofkit/webhooks/')).headers['x-ofkit-storm']).toBeUndefined();
    expect((await api.sim.call('GET', '/api/links/', { as: TENANT_B })).headers['x-ofkit-storm']).toBe(
      undefined,
    );
    expect((await api.sim.call('GET', '/_ofkit/storm/', { as: TENANT_B })).body.enabled).toBe(false);
    await api.sim.call('POST', '/_ofkit/reset/');
    expect((await api.sim.call('GET', '/_ofkit/storm/')).body).toEqual({ enabled: false, by_default: false });
    await storm(true);
    expect((await storm(null)).body.enabled).toBe(false);
  });
  it('deliveries: stormed payloads marked, each event followed by one of a code the catalogue lacks', async () => {
    await api.configure();
    await storm(true);
    const link = await api.register({ access_mode: 'recurrent' });
    const events = await api.events();
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((event) => event.storm === true)).toBe(true);
    expect(api.receiver.received).toHaveLength(events.length);
    expect(api.receiver.received.every((r) => r.headers['x-ofkit-storm'] === MARK)).toBe(true);
    const codes = events.map((event) => event.payload.webhook_code as string);
    expect(codes).toContain('accounts_reclassified');
    const newCode = events.find((event) => event.payload.webhook_code === 'accounts_reclassified');
    expect(newCode?.payload).toMatchObject({ link_id: link.id, webhook_type: 'ACCOUNTS' });
    const first = events[0]?.payload ?? {};
    expect(Object.keys(first).some((key) => NEW_MEMBERS.includes(key))).toBe(true);
  });
});

describe('the forward-compatibility storm across replicas', () => {
  it('set through one replica, every replica on the store storms; forgotten through the other', async () => {
    const store = new MemoryStore();
    const [one, other] = [
      await contractCheckedSimulator('replica-seed', { store }),
      await contractCheckedSimulator('replica-seed', { store }),
    ];
    try {
      await one.call('PUT', '/_ofkit/storm/', { body: { enabled: true } });
      expect((await other.call('GET', '/api/institutions/')).headers['x-ofkit-storm']).toBe(MARK);
      await other.call('PUT', '/_ofkit/storm/', { body: { enabled: null } });
      expect((await one.call('GET', '/api/institutions/')).headers['x-ofkit-storm']).toBeUndefined();
    } finally {
      await Promise.all([one, other].map((sim) => sim.simulator.webhooks.close()));
    }
  });
});

describe('the storm`s changes, as functions', () => {
  it('another fractional precision is the same instant; values never storm differently twice', () => {
    expect(otherPrecision('2026-11-02T12:00:00.000Z')).toBe('2026-11-02T12:00:00Z');
    expect(otherPrecision('2026-11-02T12:00:00.5-03:00')).toBe('2026-11-02T12:00:00.500000-03:00');
    expect(otherPrecision('2026-11-02')).toBe('2026-11-02');
    expect(newEnumValue('DEBIT')).toBe('DEBIT_EXTENDED');
    const value = { a: [{ category: 'Food', at: '2026-11-02T12:00:00.123Z' }], status: 'valid' };
    expect(stormValue(value)).toEqual(stormValue(value));
    expect(differences(value, stormValue(value))).toEqual([]);
    expect((stormValue(value) as { status: string }).status).toBe('valid');
  });
  it('the comparison catches a member removed or a value changed', () => {
    const stormed = stormValue({ id: 'x', n: 1 }) as Record<string, unknown>;
    expect(differences({ id: 'x', n: 1 }, { ...stormed, n: 2 })).not.toEqual([]);
    const { id: _removed, ...rest } = stormed;
    expect(differences({ id: 'x', n: 1 }, rest)).not.toEqual([]);
  });
});
