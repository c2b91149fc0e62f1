/**
 * The link triggers through the HTTP API. The tests marked `it.skip` need the trigger calls in
 * links.ts (see `link-triggers.ts`); the others hold before and after that wiring.
 */
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

const codes = async (query: Record<string, string> = {}) =>
  (await api.events(query)).map((e: EventRecord) => `${e.payload.webhook_type} ${e.payload.webhook_code}`);
const dataOf = async (link: string, webhook_type: string) =>
  (await api.events({ link, webhook_type })).map((e: EventRecord) => e.payload.data);
const count = (path: string, query: Record<string, string>) =>
  api.sim.call('GET', path, { query }).then((r) => r.body.count as number);
const BANK_HISTORY = [
  'ACCOUNTS historical_update',
  'OWNERS historical_update',
  'TRANSACTIONS historical_update',
];
const HOUR_S = 3600;

describe('WEBHOOK-HISTORICAL', () => {
  it(`registering a recurrent link sends accounts, owners and transactions historical_update`, async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    expect(await codes({ link: link.id })).toEqual(BANK_HISTORY);
    const checkPayload = webhookPayloadChecker(api.sim.simulator.document);
    expect(api.receiver.received.flatMap((d) => checkPayload(d.body))).toEqual([]);
  });
});

describe('WEBHOOK-FOLLOW-UP', () => {
  it(`historical counts and dates match the follow-up reads`, async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    const [data] = await dataOf(link.id, 'TRANSACTIONS');
    const query = { link: link.id };
    expect(data?.total_transactions).toBe(await count('/api/transactions/', query));
    expect(data?.total_inflow_transactions).toBe(
      await count('/api/transactions/', { ...query, type: 'INFLOW' }),
    );
    const range = `${data?.first_transaction_date},${data?.last_transaction_date}`;
    expect(await count('/api/transactions/', { ...query, value_date__range: range })).toBe(
      data?.total_transactions,
    );
    const [accounts] = await dataOf(link.id, 'ACCOUNTS');
    expect(accounts?.total_accounts).toBe(await count('/api/accounts/', query));
    const [owners] = await dataOf(link.id, 'OWNERS');
    expect(owners?.total_owners).toBe(await count('/api/owners/', query));
  });
});

describe('WEBHOOK-SANDBOX', () => {
  it(`sandbox: a single link's creation sends the historical events, its async deletion no LINK event`, async () => {
    await api.configure({ environment: 'sandbox' });
    const link = await api.register({ access_mode: 'single' });
    await api.sim.call('DELETE', `/api/links/${link.id}/`, {
      headers: { 'x-service-request-mode': 'async' },
    });
    await api.advance(60);
    expect(await codes({ link: link.id })).toEqual(BANK_HISTORY);
  });
});

describe('LINK-REFRESH-202', () => {
  it(`the refresh's historical_update events carry its request_id; fetch_resources limits them`, async () => {
    const link = await api.register({ access_mode: 'single' });
    const refresh = await api.sim.call('POST', `/api/links/${link.id}/refresh/`, {
      body: { fetch_resources: ['OWNERS'] },
    });
    expect(refresh.status).toBe(202);
    const events = await api.events({ link: link.id });
    expect(events.map((e) => [e.payload.webhook_type, e.payload.data.request_id])).toEqual([
      ['OWNERS', refresh.body.request_id],
    ]);
    expect((await api.sim.call('GET', `/api/links/${link.id}/`)).body.fetch_resources).toEqual(
      link.fetch_resources,
    );
  });
});

describe('LINK-ACCESS-MODE-UP', () => {
  it(`PATCH single -> recurrent: historical_update events at the start of the next day`, async () => {
    const link = await api.register({ access_mode: 'single' });
    await api.sim.call('PATCH', `/api/links/${link.id}/`, { body: { access_mode: 'recurrent' } });
    await api.advance(12 * HOUR_S - 1);
    expect(await codes({ link: link.id })).toEqual([]);
    await api.advance(1);
    const events = await api.events({ link: link.id });
    expect(events.map((e) => `${e.payload.webhook_type} ${e.payload.webhook_code}`)).toEqual(BANK_HISTORY);
    expect(events[0]?.created_at).toBe('2026-11-03T00:00:00.000Z');
  });
});

describe('LINK-ACCESS-MODE-DOWN', () => {
  it('PATCH recurrent -> single sends nothing, then or the next day', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    const before = await codes({ link: link.id });
    await api.sim.call('PATCH', `/api/links/${link.id}/`, { body: { access_mode: 'single' } });
    await api.advance(12 * HOUR_S);
    expect(await codes({ link: link.id })).toEqual(before);
  });
});

describe('LINK-PATCH-NO-UPDATE', () => {
  it('PATCH of only stale_in or fetch_resources triggers no historical update', async () => {
    const single = await api.register({ access_mode: 'single' });
    const recurrent = await api.register({ access_mode: 'recurrent' });
    const before = await codes();
    await api.sim.call('PATCH', `/api/links/${single.id}/`, { body: { stale_in: '30d' } });
    await api.sim.call('PATCH', `/api/links/${recurrent.id}/`, { body: { fetch_resources: ['ACCOUNTS'] } });
    await api.advance(12 * HOUR_S);
    expect(await codes()).toEqual(before);
  });
});

describe('LINK-PUT-CREDENTIALS', () => {
  it(`PUT credentials on an invalid recurrent link: valid again, and historical_update events`, async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.call('POST', '/_ofkit/scenarios/', {
      body: { scenario: 'next_refresh_invalid_credentials', link: link.id },
    });
    await api.sim.call('POST', '/_ofkit/daily-refresh/');
    expect((await api.sim.call('GET', `/api/links/${link.id}/`)).body.status).toBe('invalid');
    const before = (await codes({ link: link.id })).length;
    const put = await api.sim.call('PUT', `/api/links/${link.id}/`, { body: { password: 'new-secret' } });
    expect(put.body.status).toBe('valid');
    expect((await codes({ link: link.id })).slice(before)).toEqual(BANK_HISTORY);
  });
});

describe('LINK-DELETE-ASYNC', () => {
  it(`DELETE with X-Service-Request-Mode async: 202, then link_deleted with its request_id`, async () => {
    const link = await api.register({ access_mode: 'single' });
    const deleted = await api.sim.call('DELETE', `/api/links/${link.id}/`, {
      headers: { 'x-service-request-mode': 'async' },
    });
    expect(deleted.status).toBe(202);
    expect(await codes({ link: link.id })).toEqual([]);
    await api.advance(60);
    const [event] = await api.events({ link: link.id, webhook_code: 'link_deleted' });
    expect(event?.payload).toMatchObject({
      webhook_type: 'LINK',
      data: { request_id: deleted.body.request_id },
    });
    expect(webhookPayloadChecker(api.sim.simulator.document)(event?.payload)).toEqual([]);
  });
});
