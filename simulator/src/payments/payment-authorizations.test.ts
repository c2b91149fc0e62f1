import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  authorizationCharges,
  confirmAuthorization,
  createAuthorization,
  createBusinessAccount,
  createCustomer,
  eventsOf,
  eventsSince,
  expectValidEvents,
  gmt3,
  V2,
} from '../../test-support/payments-test-kit.js';

let sim: CheckedSimulator;
const clock = () => sim.simulator.tenant('tenant-a').clock;
const path = (id: string, rest = '') => `/payments/br/payment-authorizations/${id}/${rest}`;
const getAuthorization = async (id: string) => (await sim.call('GET', path(id), { headers: V2 })).body;

beforeAll(async () => {
  sim = await contractCheckedSimulator('payment-authorizations');
});
afterAll(() => expectValidEvents(sim));

describe('PAY-AUTH-V2-REQUIRED', () => {
  it('answers 400 naming the header on every payment-authorization operation without Payments-BR.V2', async () => {
    const { payment_authorization_id: id } = await createAuthorization(sim);
    const charge = '2126f32c-9c1e-4fce-8d6b-9cca9a273af6';
    const requests: [string, string, unknown?][] = [
      ['GET', '/payments/br/payment-authorizations/'],
      ['POST', '/payments/br/payment-authorizations/', {}],
      ['GET', path(id)],
      ['POST', path(id, 'cancel/')],
      ['GET', path(id, 'charges/')],
      ['GET', path(id, `charges/${charge}/`)],
      ['POST', path(id, `charges/${charge}/cancel/`)],
      ['POST', path(id, `charges/${charge}/retry/`)],
    ];
    for (const [method, url, body] of requests) {
      const answer = await sim.call(method, url, body === undefined ? {} : { body });
      expect(answer.status, `${method} ${url}`).toBe(400);
      expect(answer.body).toContainEqual(
        expect.objectContaining({ code: 'required', field: 'x-service-api-resource-version' }),
      );
    }
    const wrong = await sim.call('GET', path(id), {
      headers: { 'x-service-api-resource-version': 'Payments-BR.V1' },
    });
    expect(wrong.status).toBe(400);
    expect((await sim.call('GET', path(id), { headers: V2 })).status).toBe(200);
    expect((await getAuthorization(id)).status).toBe('AWAITING_AUTHORIZATION');
  });
});

describe('PAY-AUTH-AUTHORIZED', () => {
  it('creates AWAITING_AUTHORIZATION with no charge; the control-API confirmation authorizes, raises the event, then charges', async () => {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const created = await createAuthorization(sim);
    const id = created.payment_authorization_id;
    expect(created).toMatchObject({
      status: 'AWAITING_AUTHORIZATION',
      next_charge_date: null,
      authorized_at: null,
    });
    expect(await authorizationCharges(sim, id)).toEqual([]);
    const from = eventsOf(sim).length;
    const confirmed = await confirmAuthorization(sim, id);
    expect(confirmed).toMatchObject({
      status: 'AUTHORIZED',
      authorization_url: null,
      next_charge_date: '2026-11-10',
    });
    expect(eventsSince(sim, from)[0]).toEqual({
      webhook_type: 'PAYMENT_AUTHORIZATION',
      webhook_code: 'status',
      link_id: null,
      data: { payment_authorization_id: id, status: 'AUTHORIZED', updated_at: '2026-11-02T12:00:00.000Z' },
    });
    const [first] = await authorizationCharges(sim, id);
    expect(first).toMatchObject({ status: 'SCHEDULED', date: '2026-11-10', amount: '89.90', retries: 0 });
    const again = await sim.call('POST', `/_ofkit/payment-authorizations/${id}/confirm/`);
    expect(again.status).toBe(400);
    expect(again.body[0].code).toBe('invalid_status');
  });

  it('the trigger external_id auto-confirm… confirms without the control API (seen by the next request)', async () => {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const created = await createAuthorization(sim, { external_id: 'auto-confirm-42' });
    expect(created.status).toBe('AWAITING_AUTHORIZATION');
    const read = await getAuthorization(created.payment_authorization_id);
    expect(read).toMatchObject({ status: 'AUTHORIZED', next_charge_date: '2026-11-10' });
    const events = eventsOf(sim).filter(
      (e) => e.data.payment_authorization_id === created.payment_authorization_id,
    );
    expect(events.map((e) => [e.webhook_code, e.data.status])).toEqual([['status', 'AUTHORIZED']]);
  });

  it('auto-reject… and the control rejection refuse; an unconfirmed one expires after 30 minutes; none is charged', async () => {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const triggered = await createAuthorization(sim, { external_id: 'auto-reject-1' });
    expect(await getAuthorization(triggered.payment_authorization_id)).toMatchObject({ status: 'REJECTED' });
    const refused = await createAuthorization(sim);
    const rejected = await sim.call(
      'POST',
      `/_ofkit/payment-authorizations/${refused.payment_authorization_id}/reject/`,
    );
    expect(rejected.body).toMatchObject({ status: 'REJECTED', status_reason: expect.any(String) });
    const waiting = await createAuthorization(sim);
    await clock().advance(30 * 60_000 - 1000);
    expect((await getAuthorization(waiting.payment_authorization_id)).status).toBe('AWAITING_AUTHORIZATION');
    await clock().advance(1000);
    expect((await getAuthorization(waiting.payment_authorization_id)).status).toBe('EXPIRED');
    await clock().setTo(gmt3('2026-11-11T00:00:00'));
    for (const id of [triggered, refused, waiting].map((a) => a.payment_authorization_id))
      expect(await authorizationCharges(sim, id)).toEqual([]);
    const late = await sim.call(
      'POST',
      `/_ofkit/payment-authorizations/${waiting.payment_authorization_id}/confirm/`,
    );
    expect(late.status).toBe(400);
  });

  it('refuses unknown references (404) and a beneficiary that is not an active BUSINESS account (400)', async () => {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const customer = await createCustomer(sim);
    const individual = await sim.call('POST', '/payments/br/bank-accounts/', {
      body: {
        type: 'INDIVIDUAL',
        customer: customer.id,
        institution: '375eff08-33be-4d41-8d24-13ab2c7e0632',
        agency: '3064',
        number: '45821-0',
        account_type: 'CHECKING',
        holder: { name: 'Maria Souza', identifier: customer.identifier },
      },
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const post = (body: Record<string, unknown>) =>
      sim.call('POST', '/payments/br/payment-authorizations/', {
        headers: V2,
        body: {
          customer: customer.id,
          beneficiary: individual.body.id,
          institution: '375eff08-33be-4d41-8d24-13ab2c7e0632',
          description: 'x',
          schedule: { frequency: 'WEEKLY', start_date: '2026-11-03', amount: '10.00' },
          callback_url: 'https://app.example.com/cb',
          ...body,
        },
      });
    expect((await post({})).body[0]).toMatchObject({ code: 'invalid', field: 'beneficiary' });
    const business = await createBusinessAccount(sim);
    expect((await post({ beneficiary: business.id, customer: unknown })).body[0]).toMatchObject({
      code: 'not_found',
      field: 'customer',
    });
    expect((await post({ beneficiary: unknown })).status).toBe(404);
    expect((await post({ beneficiary: business.id, institution: unknown })).body[0].field).toBe(
      'institution',
    );
    const past = await post({
      beneficiary: business.id,
      schedule: { frequency: 'WEEKLY', start_date: '2026-11-01', amount: '1.00' },
    });
    expect(past.body[0]).toMatchObject({ code: 'invalid', field: 'schedule.start_date' });
  });
});

describe('PAY-AUTH-CANCEL-CUTOFF', () => {
  async function authorizedFor(startDate: string) {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const { payment_authorization_id: id } = await createAuthorization(sim, {
      schedule: { start_date: startDate },
    });
    await confirmAuthorization(sim, id);
    return id;
  }
  const cancel = (id: string) => sim.call('POST', path(id, 'cancel/'), { headers: V2 });

  it('at 21:59:59 GMT-3 the day before: 204, cancelled, the next charge cancelled, events', async () => {
    const id = await authorizedFor('2026-11-10');
    await clock().setTo(gmt3('2026-11-09T21:59:59'));
    const from = eventsOf(sim).length;
    expect((await cancel(id)).status).toBe(204);
    expect(await getAuthorization(id)).toMatchObject({
      status: 'CANCELLED',
      cancelled_at: '2026-11-10T00:59:59.000Z',
      next_charge_date: null,
    });
    const codes = eventsSince(sim, from).map((e) => [
      e.webhook_code,
      e.data.status,
      e.data.next_charge_cancelled,
    ]);
    expect(codes).toEqual([
      ['status', 'CANCELLED', undefined],
      ['cancelled', 'CANCELLED', true],
      ['charge_cancelled', 'CANCELLED', undefined],
      ['charge_status', 'CANCELLED', undefined],
    ]);
    await clock().setTo(gmt3('2026-11-10T07:00:00'));
    expect((await authorizationCharges(sim, id)).map((c) => c.status)).toEqual(['CANCELLED']);
  });

  it('at 22:00:00 GMT-3 the day before: 204 and the event, but the next charge still runs, and no later one', async () => {
    const id = await authorizedFor('2026-11-10');
    await clock().setTo(gmt3('2026-11-09T22:00:00'));
    const from = eventsOf(sim).length;
    expect((await cancel(id)).status).toBe(204);
    expect(
      eventsSince(sim, from).find((e) => e.webhook_code === 'cancelled')?.data.next_charge_cancelled,
    ).toBe(false);
    expect(await getAuthorization(id)).toMatchObject({ status: 'CANCELLED', next_charge_date: '2026-11-10' });
    await clock().setTo(gmt3('2026-11-10T06:00:00'));
    expect((await authorizationCharges(sim, id)).map((c) => c.status)).toEqual(['SUCCEEDED']);
    await clock().setTo(gmt3('2026-12-11T00:00:00'));
    expect((await authorizationCharges(sim, id)).length).toBe(1);
    expect((await getAuthorization(id)).next_charge_date).toBeNull();
  });

  it('computes the cutoff across a month end (charge on 1 December: cutoff 30 November 22:00:00 GMT-3)', async () => {
    const before = await authorizedFor('2026-12-01');
    const after = await authorizedFor('2026-12-01');
    await clock().setTo(gmt3('2026-11-30T21:59:59'));
    await cancel(before);
    await clock().setTo(gmt3('2026-11-30T22:00:00'));
    await cancel(after);
    await clock().setTo(gmt3('2026-12-01T06:00:00'));
    expect((await authorizationCharges(sim, before)).map((c) => c.status)).toEqual(['CANCELLED']);
    expect((await authorizationCharges(sim, after)).map((c) => c.status)).toEqual(['SUCCEEDED']);
  });

  it('an awaiting authorization cancels (no charge to cancel); a final one gets 400 invalid_status', async () => {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const { payment_authorization_id: id } = await createAuthorization(sim);
    const from = eventsOf(sim).length;
    expect((await cancel(id)).status).toBe(204);
    expect(eventsSince(sim, from)[1]?.data.next_charge_cancelled).toBe(false);
    const again = await cancel(id);
    expect(again.status).toBe(400);
    expect(again.body[0].code).toBe('invalid_status');
    expect((await cancel('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
