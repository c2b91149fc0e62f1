/**
 * The sandbox operations on a link through the HTTP API (every response checked against both
 * documents, every delivery against its webhook schema): fire an event of the catalogue now, and make a
 * link need new credentials or a token now.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../../test-support/api-harness.js';
import { webhookPayloadChecker } from '../../test-support/webhook-schemas.js';
import { FIRINGS } from './link-event-firings.js';

let api: ApiHarness;
let answers: number[];
beforeEach(async () => {
  answers = [];
  api = await apiHarness((n) => answers[n - 1] ?? 200);
  await api.configure({ bearer_token: 's3cr3t' });
});
afterEach(() => api.close());

const fire = (link: string, body: Record<string, unknown>) =>
  api.sim.call('POST', `/_ofkit/links/${link}/events/`, { body });
const setStatus = (link: string, status: string) =>
  api.sim.call('PUT', `/_ofkit/links/${link}/status/`, { body: { status } });
const delivered = async () => {
  await api.sim.simulator.webhooks.idle();
  return api.receiver.received.map((delivery) => delivery.body);
};
const codes = async () => (await delivered()).map((body) => `${body.webhook_type} ${body.webhook_code}`);
const get = (path: string, query: Record<string, string> = {}) =>
  api.sim.call('GET', path, { query }).then((answer) => answer.body);

describe('fireLinkEvent', () => {
  it('knows every event of the catalogue that concerns a link, and no other', () => {
    const document = api.sim.simulator.document;
    const webhooks = Object.keys(document.webhooks as object).filter((name) => !name.startsWith('payment_'));
    expect(Object.keys(FIRINGS).sort()).toEqual(webhooks.sort());
  });

  it('WEBHOOK-FOLLOW-UP: new_transactions_available adds `count` transactions; the receiver gets it with the bearer token', async () => {
    const link = await api.register({ access_mode: 'single' });
    const fired = await fire(link.id, { event: 'transactions_new_transactions_available', count: 3 });
    expect(fired.status).toBe(202);
    expect(fired.body).toMatchObject({
      event: 'transactions_new_transactions_available',
      link: link.id,
      note: null,
    });
    expect(fired.body.events.map((e: { payload: object }) => e.payload)).toEqual([
      expect.objectContaining({ webhook_code: 'new_transactions_available', data: { new_transactions: 3 } }),
    ]);
    const today = '2026-11-02';
    const fresh = await get('/api/transactions/', { link: link.id, created_at__range: `${today},${today}` });
    expect(fresh.count).toBe(3);
    expect(await codes()).toEqual(['TRANSACTIONS new_transactions_available']);
    expect(api.receiver.received[0]?.headers.authorization).toBe('Bearer s3cr3t');
    const checkPayload = webhookPayloadChecker(api.sim.simulator.document);
    expect((await delivered()).flatMap((body) => checkPayload(body))).toEqual([]);
  });

  it('WEBHOOK-RETRY: a fired event the receiver refuses is repeated on the tenant`s clock', async () => {
    answers = [500, 200];
    const link = await api.register();
    await fire(link.id, { event: 'owners_historical_update' });
    // The answer comes once the event is logged; its first attempt (and the retry it schedules) after.
    await api.sim.simulator.webhooks.idle();
    await api.advance(60);
    const [event] = await api.events({ link: link.id });
    expect(event?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(event?.status).toBe('delivered');
  });

  it('WEBHOOK-HISTORICAL: a historical update loads the resource and counts what the follow-up read lists', async () => {
    const link = await api.register();
    const fired = await fire(link.id, { event: 'transactions_historical_update' });
    const listed = await get('/api/transactions/', { link: link.id, page_size: '1000' });
    expect(fired.body.events[0].payload.data.total_transactions).toBe(listed.count);
    expect(listed.count).toBeGreaterThan(0);
  });

  it('transactions_updated changes a stored transaction; without stored ones it is a 400 saying what to do', async () => {
    const link = await api.register();
    const none = await fire(link.id, { event: 'transactions_updated' });
    expect(none.status).toBe(400);
    expect(none.body[0]).toMatchObject({ code: 'invalid', field: 'event' });
    expect(none.body[0].message).toContain('retrieve them first');
    await fire(link.id, { event: 'transactions_historical_update' });
    const fired = await fire(link.id, { event: 'transactions_updated' });
    const [id] = fired.body.events[0].payload.data.updated_transactions;
    const [changed] = (await get('/api/transactions/', { link: link.id, id__in: id })).results;
    expect(changed.description).toMatch(/ - corrected 2026-11-02$/);
  });

  it('an event of a resource the institution does not offer, or `count` on another event, is a 400', async () => {
    const link = await api.register();
    const invoices = await fire(link.id, { event: 'invoices_cancelled' });
    expect(invoices.status).toBe(400);
    expect(invoices.body[0].message).toContain('ofbank_br_retail offers no INVOICES');
    const counted = await fire(link.id, { event: 'owners_historical_update', count: 2 });
    expect(counted.body[0]).toMatchObject({ code: 'invalid', field: 'count' });
    expect((await fire(link.id, { event: 'no_such_event' })).status).toBe(400);
    expect((await fire('30cb4806-6e00-48a4-91c9-ca55968576c8', { event: 'link_deleted' })).status).toBe(404);
    expect(await codes()).toEqual([]);
  });

  it('LINK-PUT-CREDENTIALS: link_invalid_credentials makes the link invalid; PUT credentials brings it back with its updates', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.simulator.webhooks.idle();
    api.receiver.received.length = 0;
    const fired = await fire(link.id, { event: 'link_invalid_credentials' });
    expect(fired.body).toMatchObject({ link_status: 'invalid', note: null });
    const refused = await fire(link.id, { event: 'owners_historical_update' });
    expect(refused.body[0]).toMatchObject({ code: 'invalid_status' });
    const put = await api.sim.call('PUT', `/api/links/${link.id}/`, { body: { password: 'new-secret' } });
    expect(put.body.status).toBe('valid');
    expect(await codes()).toEqual([
      'LINK invalid_credentials',
      'ACCOUNTS historical_update',
      'OWNERS historical_update',
      'TRANSACTIONS historical_update',
    ]);
  });

  it('LINK-DELETE-ASYNC: link_deleted deletes the link with its data, then sends the event', async () => {
    const link = await api.register();
    const fired = await fire(link.id, { event: 'link_deleted' });
    expect(fired.body.link_status).toBeNull();
    expect(fired.body.events[0].payload).toMatchObject({ webhook_code: 'link_deleted', link_id: link.id });
    expect((await api.sim.call('GET', `/api/links/${link.id}/`)).status).toBe(404);
  });

  it('WEBHOOK-SANDBOX: in the sandbox environment a LINK event changes the status and sends nothing', async () => {
    await api.configure({ environment: 'sandbox' });
    const link = await api.register();
    await api.sim.simulator.webhooks.idle();
    api.receiver.received.length = 0;
    const fired = await fire(link.id, { event: 'link_token_required' });
    expect(fired.body).toMatchObject({ link_status: 'token_required', events: [] });
    expect(fired.body.note).toContain('WEBHOOK-SANDBOX');
    expect(await codes()).toEqual([]);
  });
});

describe('setLinkStatus', () => {
  it('LINK-INVALID-CREDENTIALS: a recurrent link becomes invalid now and its LINK event is sent', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.simulator.webhooks.idle();
    api.receiver.received.length = 0;
    const set = await setStatus(link.id, 'invalid');
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ link: { id: link.id, status: 'invalid' }, note: null });
    expect(set.body.events[0].payload.data).toEqual({
      error_code: 'login_error',
      error_message: 'Invalid credentials provided to login to the institution.',
      status: 400,
    });
    expect(await codes()).toEqual(['LINK invalid_credentials']);
    expect((await api.sim.call('POST', `/api/links/${link.id}/refresh/`)).status).toBe(202);
    expect(await codes()).toEqual(['LINK invalid_credentials']);
  });

  it('LINK-TOKEN-REQUIRED: token_required sends the event without webhook_id; PUT credentials with the token makes it valid', async () => {
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.simulator.webhooks.idle();
    api.receiver.received.length = 0;
    const set = await setStatus(link.id, 'token_required');
    expect(set.body.link.status).toBe('token_required');
    const [body] = await delivered();
    expect(body).not.toHaveProperty('webhook_id');
    expect(body.data).toMatchObject({ status: 428, expiry: 600 });
    // LINK-PUT-CREDENTIALS on a link that needs a token: the login asks for it (LINK-MFA-428), and new
    // credentials sent with the token make the link valid.
    const paused = await api.sim.call('PUT', `/api/links/${link.id}/`, { body: { password: 'again' } });
    expect(paused.status).toBe(428);
    const put = await api.sim.call('PUT', `/api/links/${link.id}/`, {
      body: { password: 'again', token: '123456' },
    });
    expect(put.body.status).toBe('valid');
  });

  it('a single link changes status without an event, and the answer says why', async () => {
    const link = await api.register({ access_mode: 'single' });
    const set = await setStatus(link.id, 'invalid');
    expect(set.body).toMatchObject({ link: { status: 'invalid' }, events: [] });
    expect(set.body.note).toContain('single link');
    expect(await codes()).toEqual([]);
  });

  it('a registration paused for its token is refused; another status value is a 400', async () => {
    const paused = await api.sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: 'mfa76109277673', password: 'p' },
    });
    expect(paused.status).toBe(428);
    const link = paused.body[0].link;
    expect((await setStatus(link, 'invalid')).body[0].code).toBe('unconfirmed_link');
    expect((await setStatus(link, 'valid')).status).toBe(400);
  });
});
