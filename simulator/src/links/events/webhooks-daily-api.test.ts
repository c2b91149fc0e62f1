import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../../../test-support/api-harness.js';
import { webhookPayloadChecker } from '../../../test-support/webhook-schemas.js';
import type { EventRecord } from '../../webhooks/event-log.js';

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness();
  await api.configure();
});
afterEach(() => api.close());

const dailyRefresh = () => api.sim.call('POST', '/_ofkit/daily-refresh/');
const dataOf = async (link: string, webhook_code: string) =>
  (await api.events({ link, webhook_code })).map((e: EventRecord) => e.payload.data);
const transactions = (link: string, query: Record<string, string> = {}) =>
  api.sim
    .call('GET', '/api/transactions/', { query: { link, page_size: 1000, ...query } })
    .then((r) => r.body);
const DAY_S = 86_400;
/** The LINK events the receiver got (a wired registration sends historical updates first). */
const linkEvents = () =>
  api.receiver.received.map((d) => d.body).filter((body) => body.webhook_type === 'LINK');

describe('WEBHOOK-DAILY', () => {
  it('POST /_ofkit/daily-refresh/ refreshes the recurrent links now: new_* events with the counts of the new records', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.register({ access_mode: 'single' });
    const accounts = () => api.sim.call('GET', '/api/accounts/', { query: { link: link.id } });
    const accountsBefore = (await accounts()).body.count;
    const refreshed = await dailyRefresh();
    expect(refreshed).toMatchObject({ status: 202, body: { links_refreshed: 1 } });
    // The first refresh counts the whole history, a duplicate removed after counting included.
    const today = '2026-11-02';
    const fresh = await transactions(link.id, { created_at__range: `${today},${today}` });
    const removed = (await dataOf(link.id, 'transactions_deleted')).length;
    expect(await dataOf(link.id, 'new_transactions_available')).toEqual([
      { new_transactions: fresh.count + removed },
    ]);
    expect(await dataOf(link.id, 'new_accounts_available')).toEqual([
      { new_accounts: (await accounts()).body.count - accountsBefore },
    ]);
    const checkPayload = webhookPayloadChecker(api.sim.simulator.document);
    expect(api.receiver.received.flatMap((d) => checkPayload(d.body))).toEqual([]);
    expect(api.receiver.received.length).toBeGreaterThanOrEqual(3);
  });

  it('runs by itself at 06:00 of the tenant`s clock (the default daily_refresh_time)', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.advance(18 * 3600 - 1);
    expect(await dataOf(link.id, 'new_owners_available')).toEqual([]);
    await api.advance(1);
    const [event] = await api.events({ link: link.id, webhook_code: 'new_owners_available' });
    expect(event?.created_at).toBe('2026-11-03T06:00:00.000Z');
  });
});

describe('WEBHOOK-FOLLOW-UP', () => {
  it('updated transactions resolve with id__in and show the change; deleted ones are gone', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await dailyRefresh();
    // The second refresh: at 06:00 the next day.
    await api.advance(DAY_S);
    const [updated] = await dataOf(link.id, 'transactions_updated');
    const ids = (updated?.updated_transactions ?? []) as string[];
    expect(ids).toHaveLength(1);
    const resolved = await transactions(link.id, { id__in: ids.join(',') });
    expect(resolved.results.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(resolved.results[0].description).toMatch(/ - corrected \d{4}-\d{2}-\d{2}$/);
    const [deleted] = await dataOf(link.id, 'transactions_deleted');
    const gone = ((deleted?.transactions_deleted ?? []) as string[]).join(',');
    expect(gone).toMatch(/^[0-9a-f-]{36}$/);
    expect((await transactions(link.id, { id__in: gone })).count).toBe(0);
  });
});

describe('INVOICE-CANCELLED', () => {
  it("an invoice the refresh cancels reads the SAT's Cancelado at GET /api/invoices/{id}/", async () => {
    const link = await api.register({ institution: 'ofsat_mx_fiscal', access_mode: 'recurrent' });
    await dailyRefresh();
    await dailyRefresh();
    const [cancelled] = await dataOf(link.id, 'invoices_cancelled');
    const [id] = (cancelled?.cancelled_invoices ?? []) as string[];
    expect(id).toBeDefined();
    const invoice = await api.sim.call('GET', `/api/invoices/${id}/`);
    expect(invoice.body).toMatchObject({ id, status: 'Cancelado', cancelled_at: '2026-11-02T12:00:00.000Z' });
  });
});

describe('LINK-INVALID-CREDENTIALS', () => {
  it('the switch next_refresh_invalid_credentials makes the next daily refresh set the link invalid and send invalid_credentials', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.call('POST', '/_ofkit/scenarios/', {
      body: { scenario: 'next_refresh_invalid_credentials', link: link.id },
    });
    await dailyRefresh();
    await api.sim.simulator.webhooks.idle();
    expect((await api.sim.call('GET', `/api/links/${link.id}/`)).body.status).toBe('invalid');
    expect(linkEvents()).toEqual([
      {
        webhook_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        webhook_type: 'LINK',
        webhook_code: 'invalid_credentials',
        link_id: link.id,
        data: {
          error_code: 'login_error',
          error_message: 'Invalid credentials provided to login to the institution.',
          status: 400,
        },
      },
    ]);
  });
});

describe('LINK-TOKEN-REQUIRED', () => {
  it('the switch next_refresh_token_required sets token_required and sends token_required without webhook_id', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.call('POST', '/_ofkit/scenarios/', {
      body: { scenario: 'next_refresh_token_required', link: link.id },
    });
    await dailyRefresh();
    await api.sim.simulator.webhooks.idle();
    expect((await api.sim.call('GET', `/api/links/${link.id}/`)).body.status).toBe('token_required');
    const [delivered] = linkEvents();
    expect(delivered).not.toHaveProperty('webhook_id');
    expect(delivered).toMatchObject({
      webhook_type: 'LINK',
      webhook_code: 'token_required',
      data: { status: 428 },
    });
    expect(webhookPayloadChecker(api.sim.simulator.document)(delivered)).toEqual([]);
  });
});

describe('WEBHOOK-RECURRENT-ONLY', () => {
  it('a single link`s retrieved transactions get transactions_updated and _deleted, and no new_* events', async () => {
    const link = await api.register({ access_mode: 'single' });
    const retrieved = await api.sim.call('POST', '/api/transactions/', {
      body: { link: link.id, date_from: '2026-10-01', date_to: '2026-11-01' },
    });
    expect(retrieved.status).toBe(201);
    expect((await dailyRefresh()).body).toEqual({ links_refreshed: 0 });
    const codes = (await api.events({ link: link.id })).map((e) => e.payload.webhook_code);
    expect(codes).toEqual(['transactions_updated', 'transactions_deleted']);
  });
});
