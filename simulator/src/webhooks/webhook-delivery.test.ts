import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { FIXED_NOW } from '../../test-support/contract-checked-simulator.js';
import { startReceiver, type TestReceiver } from '../../test-support/test-receiver.js';
import { type WebhookFixture, webhookFixture } from '../../test-support/webhook-fixture.js';
import { webhookPayloadChecker } from '../../test-support/webhook-schemas.js';
import { arm } from '../core/armed-switches.js';
import type { RaisedEvent } from '../core/events.js';
import { runDailyRefresh } from '../links/events/daily-refresh.js';

const document = readBundledDocument('api');
const checkPayload = webhookPayloadChecker(document);

let fx: WebhookFixture;
const receivers: TestReceiver[] = [];
const receiver = async (answer?: (n: number) => number | 'hang') => {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
};
beforeEach(() => {
  fx = webhookFixture();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await fx.hub.idle();
  await fx.close();
});

const accountsEvent = (link: string): RaisedEvent => ({
  webhook_type: 'ACCOUNTS',
  webhook_code: 'historical_update',
  link_id: link,
  data: { total_accounts: 2 },
});
const LINK_ID = '30cb4806-6e00-48a4-91c9-ca55968576c8';
const switchOn = (
  scenario: 'next_refresh_invalid_credentials' | 'next_refresh_token_required',
  link: string,
) => arm(fx.tenant, 'scenarios', { id: `s-${link}`, scenario, institution: null, link, remaining: 1 });

describe('WEBHOOK-SHAPE', () => {
  it('POSTs {webhook_id, webhook_type, webhook_code, link_id, data} as JSON, valid against the document, for every event of the catalogue', async () => {
    const hooks = await receiver();
    await fx.configure({ url: hooks.url, mode: 'deliver' });
    const bank = await fx.link();
    const fiscal = await fx.link({ institution: 'ofsat_mx_fiscal' });
    await fx.triggers.linkCreated(fx.tenant, bank);
    await fx.triggers.linkCreated(fx.tenant, fiscal);
    await runDailyRefresh(fx.linkData, fx.tenant);
    const broken = [await fx.link(), await fx.link()];
    switchOn('next_refresh_invalid_credentials', broken[0]!.id);
    switchOn('next_refresh_token_required', broken[1]!.id);
    await runDailyRefresh(fx.linkData, fx.tenant);
    await fx.triggers.linkDeleted(fx.tenant, {
      link: bank.id,
      requestId: 'a'.repeat(32),
      event: fx.tenant.ids.hex(32),
      deletedAt: fx.tenant.clock.now(),
    });
    // The payments issue raises its events through the same `emit`: nothing more is needed.
    fx.tenant.emit({
      webhook_type: 'PAYMENT_AUTHORIZATION',
      webhook_code: 'status',
      link_id: null,
      data: {
        payment_authorization_id: LINK_ID,
        status: 'AUTHORIZED',
        updated_at: '2026-11-02T12:00:00.000Z',
      },
    });
    await fx.hub.idle();

    const seen = new Set(hooks.received.map(({ body }) => `${body.webhook_type} ${body.webhook_code}`));
    expect([...seen].sort()).toEqual(
      [
        'ACCOUNTS historical_update',
        'ACCOUNTS new_accounts_available',
        'INVOICES historical_inflow_update',
        'INVOICES historical_outflow_update',
        'INVOICES invoices_cancelled',
        'INVOICES new_invoices_available',
        'LINK invalid_credentials',
        'LINK link_deleted',
        'LINK token_required',
        'OWNERS historical_update',
        'OWNERS new_owners_available',
        'PAYMENT_AUTHORIZATION status',
        'TAX_RETURNS historical_update',
        'TAX_RETURNS new_tax_returns_available',
        'TAX_STATUS historical_update',
        'TRANSACTIONS historical_update',
        'TRANSACTIONS new_transactions_available',
        'TRANSACTIONS transactions_deleted',
        'TRANSACTIONS transactions_updated',
      ].sort(),
    );
    for (const delivery of hooks.received) {
      expect(delivery.method).toBe('POST');
      expect(delivery.path).toBe('/hooks');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(checkPayload(delivery.body)).toEqual([]);
    }
    const events = await fx.events();
    expect(events.map((e) => e.payload)).toEqual(hooks.received.map((d) => d.body));
    expect(events.every((e) => e.status === 'delivered' && e.attempts.length === 1)).toBe(true);
  });

  it('numbers each event with a fresh 32-hex webhook_id, which is also its id in the log', async () => {
    await fx.configure({});
    fx.tenant.emit(accountsEvent(LINK_ID));
    fx.tenant.emit(accountsEvent(LINK_ID));
    const [first, second] = await fx.events();
    expect(first?.payload.webhook_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first?.id).toBe(first?.payload.webhook_id);
    expect(second?.id).not.toBe(first?.id);
    expect(first?.created_at).toBe(new Date(FIXED_NOW).toISOString());
  });

  it('mode record logs every event without delivering it', async () => {
    const hooks = await receiver();
    await fx.configure({ url: hooks.url, mode: 'record' });
    fx.tenant.emit(accountsEvent(LINK_ID));
    const [event] = await fx.events();
    expect(event).toMatchObject({ status: 'recorded', attempts: [] });
    expect(hooks.received).toEqual([]);
  });
});

describe('WEBHOOK-BEARER', () => {
  it('sends Authorization: Bearer <token> exactly when a token is configured', async () => {
    const hooks = await receiver();
    await fx.configure({ url: hooks.url, mode: 'deliver', bearer_token: 's3cr3t' });
    await fx.configure({ url: hooks.url, mode: 'deliver' }, fx.other);
    fx.tenant.emit(accountsEvent(LINK_ID));
    await fx.hub.idle();
    fx.other.emit(accountsEvent(LINK_ID));
    await fx.hub.idle();
    expect(hooks.received.map((d) => d.headers.authorization)).toEqual(['Bearer s3cr3t', undefined]);
  });
});

describe('WEBHOOK-SANDBOX', () => {
  it('sends no LINK events in sandbox mode, and a historical update for every new link, single ones too', async () => {
    const hooks = await receiver();
    await fx.configure({ url: hooks.url, mode: 'deliver', environment: 'sandbox' });
    const recurrent = await fx.link();
    switchOn('next_refresh_invalid_credentials', recurrent.id);
    await runDailyRefresh(fx.linkData, fx.tenant);
    const single = await fx.link({ access_mode: 'single' });
    await fx.triggers.linkCreated(fx.tenant, single);
    await fx.triggers.linkDeleted(fx.tenant, {
      link: single.id,
      requestId: 'b'.repeat(32),
      event: fx.tenant.ids.hex(32),
      deletedAt: fx.tenant.clock.now(),
    });
    await fx.hub.idle();
    const codes = hooks.received.map(
      (d) => `${d.body.webhook_type} ${d.body.webhook_code} ${d.body.link_id}`,
    );
    expect(codes).toEqual([
      `ACCOUNTS historical_update ${single.id}`,
      `OWNERS historical_update ${single.id}`,
      `TRANSACTIONS historical_update ${single.id}`,
    ]);
    expect((await fx.events({ webhook_type: 'LINK' })).length).toBe(0);
    // The link still broke: only the event is missing.
    expect((await fx.tenant.store.get('/api/links/', recurrent.id))?.status).toBe('invalid');
  });

  it('production mode sends the LINK events and no historical update for a single link', async () => {
    const hooks = await receiver();
    await fx.configure({ url: hooks.url, mode: 'deliver', environment: 'production' });
    const single = await fx.link({ access_mode: 'single' });
    await fx.triggers.linkCreated(fx.tenant, single);
    await fx.triggers.linkDeleted(fx.tenant, {
      link: single.id,
      requestId: 'b'.repeat(32),
      event: fx.tenant.ids.hex(32),
      deletedAt: fx.tenant.clock.now(),
    });
    await fx.hub.idle();
    expect(hooks.received.map((d) => `${d.body.webhook_type} ${d.body.webhook_code}`)).toEqual([
      'LINK link_deleted',
    ]);
  });
});
