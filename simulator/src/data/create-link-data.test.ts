import { describe, expect, it } from 'vitest';
import { bundledApiDocument } from '../../../openapi/document/api-document.js';
import { FIXED_NOW } from '../../test-support/contract-checked-simulator.js';
import { createTenantRegistry } from '../core/tenant-registry.js';
import { MemoryStore } from '../store/memory-store.js';
import type { StoredRecord } from '../store/store.js';
import { createLinkData } from './create-link-data.js';

const linkData = createLinkData(bundledApiDocument('api'));
const BANK: StoredRecord = { id: '6f1d2c3b-4a59-4e8d-9c7b-1a2b3c4d5e6f', institution: 'ofbank_br_retail' };
const FISCAL: StoredRecord = { id: '7a2e3d4c-5b6a-4f9e-8d7c-2b3c4d5e6f7a', institution: 'ofsat_mx_fiscal' };

function setup() {
  const store = new MemoryStore();
  const tenant = createTenantRegistry({
    seed: 's',
    store,
    environment: 'production',
    runJob: async () => undefined,
    realTime: () => FIXED_NOW,
  })('t');
  return { tenant, store };
}
const ids = (records: readonly StoredRecord[]) => records.map((r) => r.id);

describe('DATA-RETRIEVE', () => {
  it('collections are the 24 data resources of the spec, not links, institutions or consents', () => {
    expect(linkData.collections).toHaveLength(24);
    expect(linkData.collections).toContain('/api/employment-metrics/');
    for (const excluded of ['/api/links/', '/api/institutions/', '/api/consents/'])
      expect(linkData.collections).not.toContain(excluded);
  });

  it('fetch generates, stores and returns; the same link gives the same records in any order', async () => {
    const a = setup();
    const b = setup();
    const scope = { from: '2026-09-01', to: '2026-10-31' };
    const first = await linkData.fetch(a.tenant, BANK, '/api/transactions/', scope);
    expect(first.length).toBeGreaterThan(100);
    expect(await a.store.list('t', '/api/transactions/', { link: BANK.id })).toHaveLength(first.length);
    await linkData.fetch(b.tenant, BANK, '/api/owners/');
    const october = await linkData.fetch(b.tenant, BANK, '/api/transactions/', {
      from: '2026-10-01',
      to: '2026-10-31',
    });
    expect(ids(october)).toEqual(ids(first.filter((t) => String(t.value_date) >= '2026-10-01')));
  });

  it('fetch without a scope reads the default range; a scope account limits it', async () => {
    const { tenant } = setup();
    const exchanges = await linkData.fetch(tenant, BANK, '/api/br/exchanges/');
    for (const e of exchanges) expect(String(e.operation_date) >= '2025-11-02').toBe(true);
    const [, savings] = await linkData.fetch(tenant, BANK, '/api/accounts/');
    const scoped = await linkData.fetch(tenant, BANK, '/api/transactions/', { account: savings!.id });
    expect(new Set(scoped.map((t) => (t.account as { id: string }).id))).toEqual(new Set([savings!.id]));
  });

  it('fetch returns nothing for a resource the institution does not offer', async () => {
    const { tenant } = setup();
    expect(await linkData.fetch(tenant, FISCAL, '/api/accounts/')).toEqual([]);
    expect((await linkData.fetch(tenant, FISCAL, '/api/invoices/')).length).toBeGreaterThan(0);
  });

  it('addNew makes count new records dated today on the parents of the link, new ids each time', async () => {
    const { tenant, store } = setup();
    const accounts = ids(await linkData.fetch(tenant, BANK, '/api/accounts/'));
    const added = await linkData.addNew(tenant, BANK, '/api/transactions/', 5);
    expect(added).toHaveLength(5);
    for (const t of added) {
      expect(t).toMatchObject({
        link: BANK.id,
        value_date: '2026-11-02',
        created_at: '2026-11-02T12:00:00.000Z',
      });
      expect(accounts).toContain((t.account as { id: string }).id);
    }
    const more = await linkData.addNew(tenant, BANK, '/api/transactions/', 5);
    expect(ids(more).some((id) => ids(added).includes(id))).toBe(false);
    expect(await store.list('t', '/api/transactions/', { link: BANK.id })).toHaveLength(10);
    const replay = setup();
    await linkData.fetch(replay.tenant, BANK, '/api/accounts/');
    expect(ids(await linkData.addNew(replay.tenant, BANK, '/api/transactions/', 5))).toEqual(ids(added));
  });

  it('addNew of invoices mixes directions; of exchanges carries the history', async () => {
    const { tenant } = setup();
    const invoices = await linkData.addNew(tenant, FISCAL, '/api/invoices/', 20);
    expect(new Set(invoices.map((i) => i.type))).toEqual(new Set(['INFLOW', 'OUTFLOW']));
    const [exchange] = await linkData.addNew(tenant, BANK, '/api/br/exchanges/', 1);
    expect(exchange).toMatchObject({ operation_date: '2026-11-02' });
    expect((exchange!._history as unknown[]).length).toBeGreaterThan(0);
  });
});
