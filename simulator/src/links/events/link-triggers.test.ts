import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_NOW } from '../../../test-support/contract-checked-simulator.js';
import { type WebhookFixture, webhookFixture } from '../../../test-support/webhook-fixture.js';
import { filterRecords } from '../../pipeline/lists/list-filters.js';
import type { StoredRecord } from '../../store/store.js';

let fx: WebhookFixture;
beforeEach(async () => {
  fx = webhookFixture();
  await fx.configure({ mode: 'record' });
});
afterEach(() => fx.close());

const stored = (path: string, link: StoredRecord, query: Record<string, unknown> = {}) =>
  fx.tenant.store.list(path, { link: link.id }).then((records) => filterRecords(records, query));
const codes = async () =>
  (await fx.events()).map((e) => `${e.payload.webhook_type} ${e.payload.webhook_code}`);
const dataOf = async (type: string, code: string) =>
  (await fx.events({ webhook_type: type, webhook_code: code })).map((e) => e.payload.data);
const span = (records: StoredRecord[], field: string) => {
  const values = records.map((r) => r[field] as string).sort();
  return [values[0] ?? null, values.at(-1) ?? null];
};
const HOUR_MS = 3_600_000;

describe('WEBHOOK-HISTORICAL', () => {
  it('a new recurrent bank link loads its history, then accounts, owners and transactions historical_update follow', async () => {
    const link = await fx.link();
    await fx.triggers.linkCreated(fx.tenant, link);
    expect(await codes()).toEqual([
      'ACCOUNTS historical_update',
      'OWNERS historical_update',
      'TRANSACTIONS historical_update',
    ]);
    expect(fx.linkData.fetched).toEqual(['/api/accounts/', '/api/owners/', '/api/transactions/']);
    expect((await fx.events()).every((e) => e.payload.link_id === link.id)).toBe(true);
  });

  it('a new recurrent Mexican fiscal link: invoices inflow and outflow, tax returns and tax status', async () => {
    const link = await fx.link({ institution: 'ofsat_mx_fiscal' });
    await fx.triggers.linkCreated(fx.tenant, link);
    expect(await codes()).toEqual([
      'INVOICES historical_inflow_update',
      'INVOICES historical_outflow_update',
      'TAX_RETURNS historical_update',
      'TAX_STATUS historical_update',
    ]);
  });

  it('a Chilean fiscal link has invoices and tax status from its own collections, and no tax returns', async () => {
    const link = await fx.link({ institution: 'ofsii_cl_fiscal' });
    await fx.triggers.linkCreated(fx.tenant, link);
    expect(await codes()).toEqual([
      'INVOICES historical_inflow_update',
      'INVOICES historical_outflow_update',
      'TAX_STATUS historical_update',
    ]);
    const invoices = await stored('/api/cl/invoices/', link);
    const [inflow, outflow] = await dataOf('INVOICES', 'historical_inflow_update').then(async (i) => [
      i[0],
      (await dataOf('INVOICES', 'historical_outflow_update'))[0],
    ]);
    expect(Number(inflow?.total_invoices) + Number(outflow?.total_invoices)).toBe(invoices.length);
    expect(await dataOf('TAX_STATUS', 'historical_update')).toEqual([
      { total_tax_status: 1, last_status_change_date: null },
    ]);
  });

  it('only the resources of the link`s fetch_resources; nothing for single links, employment links', async () => {
    await fx.triggers.linkCreated(fx.tenant, await fx.link({ fetch_resources: ['OWNERS'] }));
    await fx.triggers.linkCreated(fx.tenant, await fx.link({ access_mode: 'single' }));
    await fx.triggers.linkCreated(fx.tenant, await fx.link({ institution: 'ofimss_mx_employment' }));
    expect(await codes()).toEqual(['OWNERS historical_update']);
  });
});

describe('WEBHOOK-FOLLOW-UP', () => {
  it('historical counts and dates are those of the records the follow-up reads return', async () => {
    const bank = await fx.link();
    const fiscal = await fx.link({ institution: 'ofsat_mx_fiscal' });
    await fx.triggers.linkCreated(fx.tenant, bank);
    await fx.triggers.linkCreated(fx.tenant, fiscal);
    const transactions = await stored('/api/transactions/', bank);
    const [first, last] = span(transactions, 'value_date');
    expect(await dataOf('TRANSACTIONS', 'historical_update')).toEqual([
      {
        total_transactions: transactions.length,
        total_inflow_transactions: (await stored('/api/transactions/', bank, { type: 'INFLOW' })).length,
        total_outflow_transactions: (await stored('/api/transactions/', bank, { type: 'OUTFLOW' })).length,
        first_transaction_date: first,
        last_transaction_date: last,
      },
    ]);
    expect(await dataOf('ACCOUNTS', 'historical_update')).toEqual([
      { total_accounts: (await stored('/api/accounts/', bank)).length },
    ]);
    expect(await dataOf('OWNERS', 'historical_update')).toEqual([
      { total_owners: (await stored('/api/owners/', bank)).length },
    ]);
    const inflow = await stored('/api/invoices/', fiscal, { type: 'INFLOW' });
    const [firstInvoice, lastInvoice] = span(inflow, 'invoice_date');
    expect(await dataOf('INVOICES', 'historical_inflow_update')).toEqual([
      { total_invoices: inflow.length, first_invoice_date: firstInvoice, last_invoice_date: lastInvoice },
    ]);
    const years = (await stored('/api/tax-returns/', fiscal)).map((r) => r.year as number);
    expect(await dataOf('TAX_RETURNS', 'historical_update')).toEqual([
      {
        total_tax_returns: years.length,
        first_tax_return_year: Math.min(...years),
        last_tax_return_year: Math.max(...years),
      },
    ]);
    // The 5-year historical load (Limits) of invoices and tax returns: the real generator's returns
    // fall within the last five years of the tenant's clock (it files none for the current year).
    const thisYear = new Date(FIXED_NOW).getUTCFullYear();
    expect(years.length).toBeGreaterThan(1);
    expect(Math.min(...years)).toBeGreaterThanOrEqual(thisYear - 5);
    expect(Math.max(...years)).toBeLessThanOrEqual(thisYear);
  });
});

describe('LINK-REFRESH-202', () => {
  it('historical_update events carry the refresh`s request_id; fetch_resources limits them', async () => {
    const link = await fx.link();
    await fx.triggers.linkRefreshed(fx.tenant, link, 'f'.repeat(32), ['TRANSACTIONS']);
    const events = await fx.events();
    expect(events.map((e) => e.payload.webhook_type)).toEqual(['TRANSACTIONS']);
    expect(events[0]?.payload.data.request_id).toBe('f'.repeat(32));
    expect((await fx.tenant.store.get('/api/links/', link.id))?.fetch_resources).toEqual(
      link.fetch_resources,
    );
  });

  it('without fetch_resources every resource of the institution; single links too; none for an invalid link', async () => {
    const single = await fx.link({ access_mode: 'single', fetch_resources: ['ACCOUNTS'] });
    await fx.triggers.linkRefreshed(fx.tenant, single, 'e'.repeat(32));
    await fx.triggers.linkRefreshed(fx.tenant, await fx.link({ status: 'invalid' }), 'd'.repeat(32));
    const events = await fx.events();
    expect(events.map((e) => `${e.payload.webhook_type} ${e.payload.data.request_id}`)).toEqual(
      ['ACCOUNTS', 'OWNERS', 'TRANSACTIONS'].map((type) => `${type} ${'e'.repeat(32)}`),
    );
  });
});

describe('LINK-ACCESS-MODE-UP', () => {
  it('single -> recurrent: the historical update runs at the start of the next day of the tenant`s clock', async () => {
    const before = await fx.link({ access_mode: 'single' });
    const after = await fx.link({ id: before.id, access_mode: 'recurrent' });
    await fx.triggers.linkUpdated(fx.tenant, before, after);
    expect(await codes()).toEqual([]);
    const midnight = Date.parse('2026-11-03T00:00:00.000Z');
    await fx.advance(midnight - FIXED_NOW - 1);
    expect(await codes()).toEqual([]);
    await fx.advance(1);
    const events = await fx.events();
    expect(events.map((e) => e.payload.webhook_code)).toEqual(Array(3).fill('historical_update'));
    expect(events[0]?.created_at).toBe('2026-11-03T00:00:00.000Z');
  });

  it('no update when the link is back to single or deleted by then', async () => {
    const single = await fx.link({ access_mode: 'single' });
    await fx.triggers.linkUpdated(fx.tenant, single, { ...single, access_mode: 'recurrent' });
    const gone = await fx.link({ access_mode: 'single' });
    await fx.triggers.linkUpdated(fx.tenant, gone, { ...gone, access_mode: 'recurrent' });
    await fx.tenant.store.delete('/api/links/', gone.id);
    await fx.advance(12 * HOUR_MS);
    expect(await codes()).toEqual([]);
  });
});

describe('LINK-ACCESS-MODE-DOWN', () => {
  it('recurrent -> single sends nothing, then or later', async () => {
    const before = await fx.link();
    const after = await fx.link({ id: before.id, access_mode: 'single' });
    await fx.triggers.linkUpdated(fx.tenant, before, after);
    await fx.advance(48 * HOUR_MS);
    expect(await codes()).toEqual([]);
  });
});

describe('LINK-PATCH-NO-UPDATE', () => {
  it('changing only stale_in or fetch_resources triggers no historical update', async () => {
    const recurrent = await fx.link();
    await fx.triggers.linkUpdated(fx.tenant, recurrent, { ...recurrent, stale_in: '30d' });
    const single = await fx.link({ access_mode: 'single' });
    await fx.triggers.linkUpdated(fx.tenant, single, { ...single, fetch_resources: ['ACCOUNTS'] });
    await fx.advance(12 * HOUR_MS);
    expect(await fx.events({ webhook_code: 'historical_update' })).toEqual([]);
  });
});

describe('LINK-PUT-CREDENTIALS', () => {
  it('new credentials on an invalid or token_required recurrent link: it updates and sends historical_update', async () => {
    for (const status of ['invalid', 'token_required']) {
      const before = await fx.link({ status });
      await fx.triggers.credentialsUpdated(fx.tenant, before, { ...before, status: 'valid' });
    }
    expect((await fx.events()).map((e) => e.payload.webhook_code)).toEqual(
      Array(6).fill('historical_update'),
    );
  });

  it('nothing for a valid link or a single link', async () => {
    const valid = await fx.link();
    await fx.triggers.credentialsUpdated(fx.tenant, valid, valid);
    const single = await fx.link({ access_mode: 'single', status: 'invalid' });
    await fx.triggers.credentialsUpdated(fx.tenant, single, { ...single, status: 'valid' });
    expect(await codes()).toEqual([]);
  });
});

describe('LINK-DELETE-ASYNC', () => {
  it('link_deleted carries the 202`s request_id and when the deletion finished', async () => {
    const link = await fx.link();
    await fx.advance(1000);
    await fx.triggers.linkDeleted(fx.tenant, {
      link: link.id,
      requestId: 'c'.repeat(32),
      event: fx.tenant.ids.hex(32),
      deletedAt: fx.tenant.clock.now(),
    });
    const [event] = await fx.events();
    expect(event?.payload).toMatchObject({
      webhook_type: 'LINK',
      webhook_code: 'link_deleted',
      link_id: link.id,
      data: { request_id: 'c'.repeat(32), deleted_at: new Date(FIXED_NOW + 1000).toISOString() },
    });
  });
});
