import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_NOW } from '../../../test-support/contract-checked-simulator.js';
import { type WebhookFixture, webhookFixture } from '../../../test-support/webhook-fixture.js';
import { arm, listArmed } from '../../core/armed-switches.js';
import { filterRecords } from '../../pipeline/lists/list-filters.js';
import type { StoredRecord } from '../../store/store.js';
import { writeWebhookConfig } from '../../webhooks/webhook-config.js';
import { runDailyRefresh } from './daily-refresh.js';
import { ensureDailyRefresh } from './daily-schedule.js';

let fx: WebhookFixture;
beforeEach(async () => {
  fx = webhookFixture();
  await fx.configure({ mode: 'record' });
});
afterEach(() => fx.close());

const HOUR_MS = 3_600_000;
const refresh = () => runDailyRefresh(fx.linkData, fx.tenant);
const list = (path: string, link: StoredRecord, query: Record<string, unknown> = {}) =>
  fx.tenant.store.list(path, { link: link.id }).then((records) => filterRecords(records, query));
const codesOf = async (link: StoredRecord) =>
  (await fx.events({ link: link.id })).map((e) => `${e.payload.webhook_type} ${e.payload.webhook_code}`);
const newLink = async (fields: Record<string, unknown> = {}) => {
  const link = await fx.link(fields);
  await fx.triggers.linkCreated(fx.tenant, link);
  return link;
};
const dataOf = async (link: StoredRecord, code: string) =>
  (await fx.events({ link: link.id, webhook_code: code })).map((e) => e.payload.data);
const switchOn = (
  scenario: 'next_refresh_invalid_credentials' | 'next_refresh_token_required',
  link: string,
) => arm(fx.tenant, 'scenarios', { id: 's', scenario, institution: null, link, remaining: 1 });
const statusOf = async (link: StoredRecord) => (await fx.tenant.store.get('/api/links/', link.id))?.status;

describe('WEBHOOK-DAILY', () => {
  it('recurrent links refresh at the configured hour of the tenant`s clock, and again every day', async () => {
    await fx.configure({ mode: 'record', daily_refresh_time: '13:30' });
    const link = await newLink();
    await fx.advance(1.5 * HOUR_MS - 1);
    expect(await fx.events({ webhook_code: 'new_transactions_available' })).toEqual([]);
    await fx.advance(1);
    await fx.advance(24 * HOUR_MS);
    const daily = await fx.events({ webhook_code: 'new_accounts_available' });
    expect(daily.map((e) => e.created_at)).toEqual(['2026-11-02T13:30:00.000Z', '2026-11-03T13:30:00.000Z']);
    expect((await codesOf(link)).slice(3, 8)).toEqual([
      'ACCOUNTS new_accounts_available',
      'OWNERS new_owners_available',
      'TRANSACTIONS new_transactions_available',
      'TRANSACTIONS transactions_updated',
      'TRANSACTIONS transactions_deleted',
    ]);
  });

  it('new records appear and their counts are in the events; the first refresh counts the whole history', async () => {
    const link = await newLink();
    const historical = (await list('/api/transactions/', link)).length;
    expect(await refresh()).toBe(1);
    const after = await list('/api/transactions/', link);
    expect(after.length + 1).toBeGreaterThan(historical);
    // Counted before one old transaction turned out a duplicate and was removed (transactions_deleted).
    expect((await dataOf(link, 'new_transactions_available'))[0]).toEqual({
      new_transactions: after.length + 1,
    });
    await fx.advance(24 * HOUR_MS);
    const secondDay = new Date(FIXED_NOW + 24 * HOUR_MS).toISOString().slice(0, 10);
    const second = await list('/api/transactions/', link, { created_at__range: `${secondDay},${secondDay}` });
    expect((await dataOf(link, 'new_transactions_available'))[1]).toEqual({
      new_transactions: second.length,
    });
    expect((await dataOf(link, 'new_accounts_available'))[1]).toEqual({ new_accounts: 1 });
    expect((await dataOf(link, 'new_owners_available'))[1]).toEqual({ new_owners: 1 });
  });

  it('the same seed gives the same refresh', async () => {
    const payloads = [];
    for (let run = 0; run < 2; run++) {
      const fresh = run === 0 ? fx : webhookFixture();
      await fresh.configure({ mode: 'record' });
      const link = await fresh.link();
      await fresh.triggers.linkCreated(fresh.tenant, link);
      await runDailyRefresh(fresh.linkData, fresh.tenant);
      payloads.push((await fresh.events()).map((e) => e.payload));
      if (fresh !== fx) await fresh.close();
    }
    expect(payloads[1]).toEqual(payloads[0]);
  });

  it('a new daily_refresh_time takes over from the next occurrence; a clock reset schedules it again', async () => {
    const link = await newLink();
    await writeWebhookConfig(fx.tenant, { mode: 'record', daily_refresh_time: '18:00' });
    await ensureDailyRefresh(fx.tenant, true);
    await fx.advance(24 * HOUR_MS);
    expect((await fx.events({ webhook_code: 'new_owners_available' })).map((e) => e.created_at)).toEqual([
      '2026-11-02T18:00:00.000Z',
    ]);
    await fx.tenant.clock.reset();
    // The pipeline runs the due jobs at every request: the next request finds the schedule again.
    await fx.tenant.clock.runDue();
    await fx.advance(6 * HOUR_MS);
    expect(await fx.events({ webhook_code: 'new_owners_available', link: link.id })).toHaveLength(2);
  });

  it('after a snapshot import (reset, then set) no refresh of the days in between runs', async () => {
    const link = await newLink();
    await fx.tenant.clock.reset();
    await fx.tenant.clock.setTo(FIXED_NOW + 10 * 24 * HOUR_MS);
    expect(await fx.events({ webhook_code: 'new_owners_available' })).toEqual([]);
    await fx.advance(18 * HOUR_MS);
    const [event] = await fx.events({ webhook_code: 'new_owners_available', link: link.id });
    expect(event?.created_at).toBe('2026-11-13T06:00:00.000Z');
  });
});

describe('WEBHOOK-RECURRENT-ONLY', () => {
  it('a single link gets only transactions_updated and transactions_deleted from the daily refresh', async () => {
    const single = await fx.link({ access_mode: 'single' });
    await fx.linkData.fetch(fx.tenant, single, '/api/transactions/');
    const recurrent = await newLink();
    expect(await refresh()).toBe(1);
    expect(await codesOf(single)).toEqual([
      'TRANSACTIONS transactions_updated',
      'TRANSACTIONS transactions_deleted',
    ]);
    expect(await codesOf(recurrent)).toContain('TRANSACTIONS new_transactions_available');
  });

  it('the updated ids resolve with id__in and show the change; the deleted ones are gone (WEBHOOK-FOLLOW-UP)', async () => {
    const link = await newLink();
    const before = await list('/api/transactions/', link);
    await refresh();
    const [updated] = await dataOf(link, 'transactions_updated');
    const [deleted] = await dataOf(link, 'transactions_deleted');
    const ids = updated?.updated_transactions as string[];
    expect(updated?.count).toBe(ids.length);
    const resolved = await list('/api/transactions/', link, { id__in: ids.join(',') });
    expect(resolved.map((r) => r.id)).toEqual(ids);
    expect(resolved[0]?.description).toMatch(/ - corrected 2026-11-02$/);
    expect(before.find((r) => r.id === ids[0])?.description).not.toBe(resolved[0]?.description);
    const gone = deleted?.transactions_deleted as string[];
    expect(deleted?.count).toBe(gone.length);
    expect(await list('/api/transactions/', link, { id__in: gone.join(',') })).toEqual([]);
    expect(ids).not.toContain(gone[0]);
  });
});

describe('INVOICE-CANCELLED', () => {
  it('an invoice in force (Vigente) becomes Cancelado and invoices_cancelled lists it; new invoices are counted by direction', async () => {
    const link = await newLink({ institution: 'ofsat_mx_fiscal' });
    const stored = await list('/api/invoices/', link);
    const before = new Set(stored.map((r) => r.id));
    await refresh();
    const [cancelled] = await dataOf(link, 'invoices_cancelled');
    const ids = cancelled?.cancelled_invoices as string[];
    expect(ids).toHaveLength(1);
    const invoice = await fx.tenant.store.get('/api/invoices/', ids[0]!);
    expect(stored.find((r) => r.id === ids[0])).toMatchObject({ status: 'Vigente', cancelled_at: null });
    expect(invoice).toMatchObject({ status: 'Cancelado', cancelled_at: new Date(FIXED_NOW).toISOString() });
    const fresh = (await list('/api/invoices/', link)).filter((r) => !before.has(r.id));
    expect(await dataOf(link, 'new_invoices_available')).toEqual([
      {
        new_invoices: fresh.length,
        new_inflow_invoices: fresh.filter((r) => r.type === 'INFLOW').length,
        new_outflow_invoices: fresh.filter((r) => r.type === 'OUTFLOW').length,
      },
    ]);
    expect(await codesOf(link)).toContain('TAX_RETURNS new_tax_returns_available');
  });
});

describe('LINK-INVALID-CREDENTIALS', () => {
  it('the switched daily refresh sets the link invalid and sends invalid_credentials; later refreshes skip it', async () => {
    const link = await newLink();
    switchOn('next_refresh_invalid_credentials', link.id);
    await refresh();
    expect(await statusOf(link)).toBe('invalid');
    expect((await fx.events({ link: link.id, webhook_type: 'LINK' }))[0]?.payload).toMatchObject({
      webhook_code: 'invalid_credentials',
      data: {
        error_code: 'login_error',
        error_message: 'Invalid credentials provided to login to the institution.',
        status: 400,
      },
    });
    await refresh();
    expect((await codesOf(link)).filter((c) => c.includes('new_'))).toEqual([]);
    expect(await listArmed(fx.tenant, 'scenarios')).toEqual([]);
  });
});

describe('LINK-TOKEN-REQUIRED', () => {
  it('the switched daily refresh sets token_required and sends token_required without a webhook_id', async () => {
    const link = await newLink();
    switchOn('next_refresh_token_required', link.id);
    await refresh();
    expect(await statusOf(link)).toBe('token_required');
    const [event] = await fx.events({ link: link.id, webhook_code: 'token_required' });
    expect(event?.payload).not.toHaveProperty('webhook_id');
    expect(event?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(event?.payload.data).toMatchObject({ error_code: 'token_required', status: 428, expiry: 600 });
    expect(event?.payload.data.session).toMatch(/^[0-9a-f]{32}$/);
  });
});
