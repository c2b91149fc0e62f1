/**
 * Real snapshots exported before the simulator sent the provider's values (`ofkit-snapshot/1`,
 * test-support/fixtures/), and `ofkit-snapshot/2` ones (tax returns' `type` in capitals), imported into
 * this one: migrated where the provider's words can say the same, refused with one line naming what
 * changed where they cannot.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';

const FIXTURES = join(import.meta.dirname, '../../test-support/fixtures');
// biome-ignore lint/suspicious/noExplicitAny: the fixtures are snapshots read as JSON
const fixture = (name: string): any => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
const OLD = 'snapshot-v1-fiscal-and-bank.json';
const TWICE = 'snapshot-v1-tax-returns-refreshed-twice.json';

interface Stored {
  id: string;
  status?: string;
  link?: string;
  [member: string]: unknown;
}

let sim: CheckedSimulator;
beforeEach(async () => {
  sim = await contractCheckedSimulator('snapshot-migration');
});

const importSnapshot = (body: unknown) => sim.call('PUT', '/_ofkit/snapshot/', { body });
const collection = (
  snapshot: { state: { store: { collections: Record<string, Stored[]> } } },
  path: string,
) => snapshot.state.store.collections[path] ?? [];

describe('an ofkit-snapshot/1 snapshot (before the provider values)', () => {
  it('imports migrated: invoice statuses in the SAT words, the status filter and the detail follow them', async () => {
    const old = fixture(OLD);
    expect(old.format).toBe('ofkit-snapshot/1');
    const invoices = collection(old, '/api/invoices/');
    const wasCancelled = invoices.filter((i) => i.status === 'CANCELLED').map((i) => i.id);
    expect(wasCancelled.length).toBeGreaterThan(0);
    expect(invoices.filter((i) => i.status === 'ACTIVE').length).toBeGreaterThan(0);
    expect((await importSnapshot(old)).status).toBe(204);
    const link = invoices[0]!.link!;
    const list = async (status: string) =>
      (await sim.call('GET', '/api/invoices/', { query: { link, status } })).body.results.map(
        (i: Stored) => i.id,
      );
    expect(await list('Cancelado')).toEqual(wasCancelled);
    expect(await list('Vigente')).toHaveLength(invoices.length - wasCancelled.length);
    expect(await list('CANCELLED')).toEqual([]);
    const detail = await sim.call('GET', `/api/invoices/${wasCancelled[0]}/`);
    expect(detail.body).toMatchObject({ id: wasCancelled[0], status: 'Cancelado' });
  });

  it("gives links the provider's institution_user_id, the same a link of the same user gets now", async () => {
    const old = fixture(OLD);
    const [fiscal] = collection(old, '/api/links/');
    expect(fiscal!.institution_user_id).toMatch(/^[0-9a-f]{32}$/);
    expect((await importSnapshot(old)).status).toBe(204);
    const imported = (await sim.call('GET', `/api/links/${fiscal!.id}/`)).body;
    expect(imported.institution_user_id).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    const body = { institution: fiscal!.institution, username: fiscal!._username, password: 'ciec' };
    const fresh = (await sim.call('POST', '/api/links/', { body })).body;
    expect(fresh.institution_user_id).toBe(imported.institution_user_id);
  });

  it('keeps every other record as it was; its tax returns retrieved again keep their ids; exports as /3', async () => {
    const old = fixture(OLD);
    expect((await importSnapshot(old)).status).toBe(204);
    const exported = (await sim.call('GET', '/_ofkit/snapshot/')).body;
    expect(exported.format).toBe('ofkit-snapshot/3');
    for (const path of ['/api/tax-status/', '/api/incomes/', '/api/recurring-expenses/'])
      expect(collection(exported, path), path).toEqual(collection(old, path));
    const returns = collection(old, '/api/tax-returns/');
    // TAX-RETURNS-MIXED: the same returns, their `type` as the provider spells it.
    const lowerCased = returns.map((r) => ({ ...r, type: String(r.type).toLowerCase() }));
    expect(collection(exported, '/api/tax-returns/')).toEqual(lowerCased);
    const link = returns[0]!.link!;
    const again = await sim.call('POST', '/api/tax-returns/', {
      body: { link, year_from: '2024', year_to: '2025' },
    });
    const yearly = returns.filter((r) => r.type === 'YEARLY').map((r) => r.id);
    expect(again.body.map((r: Stored) => r.id)).toEqual(yearly);
    const listed = (await sim.call('GET', '/api/tax-returns/', { query: { link } })).body;
    expect(listed.count).toBe(returns.length);
    // The migrated export imports again as it is.
    expect((await importSnapshot(exported)).status).toBe(204);
  });

  it('holding two tax returns of one period, is refused with one line naming what changed; nothing changes', async () => {
    const before = (await sim.call('GET', '/_ofkit/snapshot/')).body;
    const twice = fixture(TWICE);
    const [link] = collection(twice, '/api/links/');
    const duplicates = collection(twice, '/api/tax-returns/').filter((r) => r.year === 2026);
    expect(duplicates).toHaveLength(2);
    const refused = await importSnapshot(twice);
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveLength(1);
    const [error] = refused.body;
    expect(error).toMatchObject({ code: 'invalid', field: 'state.store.collections./api/tax-returns/' });
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain('ofkit-snapshot/1');
    expect(error.message).toContain(`link ${link!.id}`);
    expect(error.message).toContain('yearly 2026');
    for (const { id } of duplicates) expect(error.message).toContain(id);
    expect(error.message).toContain('one per link, kind and period');
    expect((await sim.call('GET', '/_ofkit/snapshot/')).body).toEqual(before);
  });

  it('without the duplicate, the same snapshot imports', async () => {
    const twice = fixture(TWICE);
    const returns = collection(twice, '/api/tax-returns/');
    twice.state.store.collections['/api/tax-returns/'] = returns.slice(0, -1);
    expect((await importSnapshot(twice)).status).toBe(204);
  });
});

describe('an ofkit-snapshot/2 snapshot (tax returns typed YEARLY and MONTHLY)', () => {
  it("imports with the provider's `yearly` and `monthly`; the type filter takes both spellings", async () => {
    expect((await importSnapshot(fixture(OLD))).status).toBe(204);
    const current = (await sim.call('GET', '/_ofkit/snapshot/')).body;
    const returns = collection(current, '/api/tax-returns/');
    expect(new Set(returns.map((r) => r.type))).toEqual(new Set(['yearly', 'monthly']));
    // What a /2 export held: the same state, tax returns typed in capitals.
    const upper = returns.map((r) => ({ ...r, type: String(r.type).toUpperCase() }));
    current.state.store.collections['/api/tax-returns/'] = upper;
    expect((await importSnapshot({ ...current, format: 'ofkit-snapshot/2' })).status).toBe(204);
    const link = returns[0]!.link!;
    const listed = async (type: string) =>
      (await sim.call('GET', '/api/tax-returns/', { query: { link, type } })).body.results.map(
        (r: Stored) => `${r.type} ${r.id}`,
      );
    const monthly = returns.filter((r) => r.type === 'monthly').map((r) => `monthly ${r.id}`);
    expect(monthly.length).toBeGreaterThan(0);
    expect(await listed('monthly')).toEqual(monthly);
    expect(await listed('MONTHLY')).toEqual(monthly);
    expect((await listed('yearly')).length).toBe(returns.length - monthly.length);
  });
});
