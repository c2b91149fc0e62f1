import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../../test-support/api-harness.js';
import { FIXED_NOW, TEST_KEYS } from '../../test-support/contract-checked-simulator.js';
import { webhookPayloadChecker } from '../../test-support/webhook-schemas.js';
import { createSimulator } from '../simulator.js';

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness((n) => (n === 1 ? 500 : 200));
});
afterEach(() => api.close());

const tenantA = () => api.sim.simulator.tenant('tenant-a');
const raise = (link: string | null = null) =>
  tenantA().emit({
    webhook_type: 'PAYMENT_AUTHORIZATION',
    webhook_code: 'status',
    link_id: link,
    data: {
      payment_authorization_id: '8151c14d-056e-4450-bfd4-1d7d50c7cce2',
      status: 'AUTHORIZED',
      updated_at: '2026-11-02T12:00:00.000Z',
    },
  });

describe('WEBHOOK-BEARER', () => {
  it('GET /_ofkit/webhooks/ has the defaults; PUT sets URL and bearer token for the caller`s tenant only', async () => {
    const defaults = {
      url: null,
      bearer_token: null,
      environment: 'production',
      retry_interval_seconds: 60,
      mode: 'deliver',
      daily_refresh_time: '06:00',
      delivery_delay_seconds: 0,
      delivery_order: 'raised',
    };
    expect((await api.sim.call('GET', '/_ofkit/webhooks/')).body).toEqual(defaults);
    const put = await api.configure({ bearer_token: 's3cr3t', daily_refresh_time: '07:15' });
    expect(put).toMatchObject({
      status: 200,
      body: { ...defaults, url: api.receiver.url, bearer_token: 's3cr3t', daily_refresh_time: '07:15' },
    });
    expect((await api.sim.call('GET', '/_ofkit/webhooks/')).body).toEqual(put.body);
    expect((await api.sim.call('GET', '/_ofkit/webhooks/', { as: 'tenant-b:secret-b' })).body).toEqual(
      defaults,
    );
    raise();
    await api.events();
    expect(api.receiver.received[0]?.headers.authorization).toBe('Bearer s3cr3t');
  });

  it('the receiver and token given at start (`--webhook-url`, `--webhook-bearer`) are every tenant`s default', async () => {
    const simulator = await createSimulator({
      seed: 'defaults',
      environment: 'production',
      keys: TEST_KEYS,
      realTime: () => FIXED_NOW,
      webhook: { url: api.receiver.url, bearer_token: 'from-cli' },
    });
    const authorization = `Basic ${Buffer.from('tenant-b:secret-b').toString('base64')}`;
    const config = await simulator.handle({
      method: 'GET',
      path: '/_ofkit/webhooks/',
      query: new URLSearchParams(),
      headers: { authorization },
      body: '',
      origin: 'http://127.0.0.1:4010',
    });
    expect(config.body).toMatchObject({ url: api.receiver.url, bearer_token: 'from-cli', mode: 'deliver' });
    simulator
      .tenant('tenant-b')
      .emit({ webhook_type: 'LINK', webhook_code: 'link_deleted', link_id: null, data: {} });
    await simulator.webhooks.idle();
    await simulator.webhooks.close();
    expect(api.receiver.received[0]?.headers.authorization).toBe('Bearer from-cli');
  });

  it('PUT without url is refused with the field named', async () => {
    const refused = await api.sim.call('PUT', '/_ofkit/webhooks/', { body: { mode: 'record' } });
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'required', field: 'url' });
  });
});

describe('WEBHOOK-SHAPE', () => {
  it('the event log lists every event with its payload and attempts, oldest first, filterable by link, type and code', async () => {
    await api.configure({ mode: 'record' });
    const link = '30cb4806-6e00-48a4-91c9-ca55968576c8';
    raise();
    tenantA().emit({
      webhook_type: 'OWNERS',
      webhook_code: 'historical_update',
      link_id: link,
      data: { total_owners: 1 },
    });
    const all = await api.events();
    expect(all.map((e) => e.payload.webhook_type)).toEqual(['PAYMENT_AUTHORIZATION', 'OWNERS']);
    expect(all.every((e) => e.status === 'recorded' && e.attempts.length === 0)).toBe(true);
    expect(await api.events({ link })).toEqual([all[1]]);
    expect(await api.events({ webhook_type: 'PAYMENT_AUTHORIZATION' })).toEqual([all[0]]);
    expect(await api.events({ webhook_code: 'historical_update' })).toEqual([all[1]]);
    expect(await api.events({ webhook_code: 'nothing' })).toEqual([]);
    const checkPayload = webhookPayloadChecker(api.sim.simulator.document);
    expect(all.flatMap((e) => checkPayload(e.payload))).toEqual([]);
  });

  it('the log and the configuration live in the store, so the snapshot carries them and a reset keeps only the configuration', async () => {
    await api.configure({ mode: 'record' });
    raise();
    await api.events();
    const snapshot = await tenantA().store.exportTenant();
    expect(Object.keys(snapshot.collections)).toEqual(
      expect.arrayContaining(['_ofkit/webhooks', '_ofkit/events']),
    );
    expect((await api.sim.call('POST', '/_ofkit/reset/')).status).toBe(204);
    expect(await api.events()).toEqual([]);
    expect((await api.sim.call('GET', '/_ofkit/webhooks/')).body).toMatchObject({ mode: 'record' });
  });
});

describe('WEBHOOK-RETRY', () => {
  it('a delivery answered 500 is repeated after retry_interval_seconds of the tenant`s clock, then delivered', async () => {
    await api.configure({ retry_interval_seconds: 5 });
    raise();
    expect((await api.events())[0]).toMatchObject({ status: 'pending', attempts: [{ status: 500 }] });
    await api.advance(5);
    const [event] = await api.events();
    expect(event?.status).toBe('delivered');
    expect(event?.attempts.map((a) => [a.at, a.status])).toEqual([
      ['2026-11-02T12:00:00.000Z', 500],
      ['2026-11-02T12:00:05.000Z', 200],
    ]);
    expect(api.receiver.received.map((d) => d.body)).toEqual([event?.payload, event?.payload]);
  });
});

describe('WEBHOOK-SANDBOX', () => {
  it('environment sandbox records no LINK events', async () => {
    await api.configure({ environment: 'sandbox', mode: 'record' });
    const link = await api.register({ access_mode: 'recurrent' });
    await api.sim.call('POST', '/_ofkit/scenarios/', {
      body: { scenario: 'next_refresh_invalid_credentials', link: link.id },
    });
    await api.sim.call('POST', '/_ofkit/daily-refresh/');
    expect((await api.sim.call('GET', `/api/links/${link.id}/`)).body.status).toBe('invalid');
    expect(await api.events({ webhook_type: 'LINK' })).toEqual([]);
  });
});
