import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  businessAccountBody,
  createBusinessAccount,
  createCustomer,
  eventsOf,
  eventsSince,
  expectValidEvents,
  gmt3,
  nextCnpj,
  nextCpf,
} from '../../test-support/payments-test-kit.js';

let sim: CheckedSimulator;
const clock = () => sim.simulator.tenant('tenant-a').clock;
const INTENTS = '/payments/br/payment-intents/';
const base = { amount: '250.00', description: 'Pedido 4471', provider: 'PIX' };
const newCustomer = () => ({ identifier: nextCpf(), name: 'Joao Lima', customer_type: 'INDIVIDUAL' });
const createIntent = (body: Record<string, unknown>) =>
  sim.call('POST', INTENTS, { body: { ...base, ...body } });
const getIntent = async (id: string) => (await sim.call('GET', `${INTENTS}${id}/`)).body;
const chargesOf = async (id: string) => (await sim.call('GET', `${INTENTS}${id}/charges/`)).body.results;
const authorize = (id: string) => sim.call('POST', `/_ofkit/payment-intents/${id}/authorize/`);

beforeAll(async () => {
  sim = await contractCheckedSimulator('payment-intents');
  await clock().setTo(gmt3('2026-11-02T09:00:00'));
});
afterAll(() => expectValidEvents(sim));

describe('PAY-INTENT-CONFIGS', () => {
  it('accepts the five beneficiary/payer configurations (201)', async () => {
    const customer = (await createCustomer(sim)).id;
    const beneficiary = (await createBusinessAccount(sim)).id;
    const pixKey = { type: 'EMAIL', value: 'loja@exemplo.com.br' };
    const configurations = [
      { pix_key: pixKey, customer },
      { pix_key: pixKey, customer: newCustomer() },
      { beneficiary, customer },
      { beneficiary, customer: newCustomer() },
      { beneficiary: businessAccountBody(), customer: newCustomer() },
    ];
    for (const configuration of configurations) {
      const created = await createIntent(configuration);
      expect(created.status, JSON.stringify(configuration)).toBe(201);
      expect(created.body.status).toBe('pix_key' in configuration ? 'REQUIRES_ACTION' : 'PENDING');
      const payer =
        typeof configuration.customer === 'string' ? configuration.customer : created.body.customer;
      expect((await sim.call('GET', `/payments/br/customers/${payer}/`)).status).toBe(200);
      if (created.body.beneficiary)
        expect(
          (await sim.call('GET', `/payments/br/bank-accounts/${created.body.beneficiary}/`)).body.type,
        ).toBe('BUSINESS');
    }
  });

  it('refuses other combinations, unknown ids and invalid new objects, creating nothing', async () => {
    const customer = (await createCustomer(sim)).id;
    const before = (await sim.call('GET', '/payments/br/customers/')).body.count;
    expect((await createIntent({ beneficiary: businessAccountBody(), customer })).status).toBe(400);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await createIntent({ beneficiary: unknown, customer })).body[0]).toMatchObject({
      code: 'not_found',
      field: 'beneficiary',
    });
    const bad = await createIntent({
      beneficiary: businessAccountBody({ holder: { name: 'X', identifier: '62819482000160' } }),
      customer: newCustomer(),
    });
    expect(bad.body[0]).toMatchObject({ code: 'invalid_identifier', field: 'beneficiary.holder.identifier' });
    const badCpf = await createIntent({
      pix_key: { type: 'CPF', value: '52601815900' },
      customer: newCustomer(),
    });
    expect(badCpf.body[0]).toMatchObject({ code: 'invalid_identifier', field: 'pix_key.value' });
    const individual = await createIntent({
      beneficiary: businessAccountBody({ type: 'INDIVIDUAL' }),
      customer: newCustomer(),
    });
    expect(individual.body[0].field).toBe('beneficiary.type');
    expect((await sim.call('GET', '/payments/br/customers/')).body.count).toBe(before);
    const today = await createIntent({
      pix_key: { type: 'CNPJ', value: nextCnpj() },
      customer,
      scheduled_date: '2026-11-02',
    });
    expect(today.body[0]).toMatchObject({ code: 'invalid', field: 'scheduled_date' });
  });
});

describe('PAY-INTENT-PIX-PATCH', () => {
  it('a Pix-key intent stays REQUIRES_ACTION until PATCH completes it (PENDING, authorization_url); PATCH again is 400', async () => {
    const account = await createBusinessAccount(sim);
    const customer = (await createCustomer(sim)).id;
    const created = await createIntent({
      pix_key: { type: 'CNPJ', value: account.holder.identifier },
      customer,
    });
    expect(created.body).toMatchObject({
      status: 'REQUIRES_ACTION',
      authorization_url: null,
      beneficiary: null,
    });
    expect((await authorize(created.body.id)).status).toBe(400);
    const completed = await sim.call('PATCH', `${INTENTS}${created.body.id}/`, {
      body: { pix_key_confirmation: true },
    });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      status: 'PENDING',
      authorization_url: expect.stringContaining(created.body.id),
    });
    const again = await sim.call('PATCH', `${INTENTS}${created.body.id}/`, {
      body: { pix_key_confirmation: true },
    });
    expect(again.body[0].code).toBe('invalid_status');
    expect((await authorize(created.body.id)).body.status).toBe('PROCESSING');
    expect((await getIntent(created.body.id)).status).toBe('SUCCEEDED');
    const transactions = await sim.call('GET', '/payments/br/transactions/', {
      query: { charge: (await chargesOf(created.body.id))[0].charge_id },
    });
    expect(transactions.body.results[0].beneficiary.bank_account).toBe(account.id);
  });

  it('the trigger external_id auto-confirm… authorizes once completed; auto-reject… fails it', async () => {
    const customer = (await createCustomer(sim)).id;
    const beneficiary = (await createBusinessAccount(sim)).id;
    const pix = await createIntent({
      pix_key: { type: 'EVP', value: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' },
      customer,
      external_id: 'auto-confirm-7',
    });
    expect((await getIntent(pix.body.id)).status).toBe('REQUIRES_ACTION');
    await sim.call('PATCH', `${INTENTS}${pix.body.id}/`, { body: { pix_key_confirmation: true } });
    expect((await getIntent(pix.body.id)).status).toBe('SUCCEEDED');
    const refused = await createIntent({ beneficiary, customer, external_id: 'auto-reject-7' });
    expect(await getIntent(refused.body.id)).toMatchObject({ status: 'FAILED', authorization_url: null });
    expect(await chargesOf(refused.body.id)).toEqual([]);
  });
});

describe('PAY-INTENT-CANCEL-CUTOFF', () => {
  async function scheduledIntent(date: string) {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const customer = (await createCustomer(sim)).id;
    const beneficiary = (await createBusinessAccount(sim)).id;
    const created = await createIntent({ beneficiary, customer, scheduled_date: date });
    expect((await authorize(created.body.id)).body.status).toBe('SCHEDULED');
    const [charge] = await chargesOf(created.body.id);
    expect(charge).toMatchObject({ status: 'SCHEDULED', date, payment_authorization: null });
    return { id: created.body.id as string, charge: charge.charge_id as string };
  }
  const cancelIntent = (id: string) => sim.call('POST', `${INTENTS}${id}/cancel/`);
  const cancelCharge = (id: string, charge: string) =>
    sim.call('POST', `${INTENTS}${id}/charges/${charge}/cancel/`);

  it('cancelling the intent at 23:58:59 GMT-3 the day before: 204, both CANCELLED, events', async () => {
    const { id, charge } = await scheduledIntent('2026-11-20');
    await clock().setTo(gmt3('2026-11-19T23:58:59'));
    const from = eventsOf(sim).length;
    expect((await cancelIntent(id)).status).toBe(204);
    expect(await getIntent(id)).toMatchObject({
      status: 'CANCELLED',
      cancelled_at: '2026-11-20T02:58:59.000Z',
    });
    expect(eventsSince(sim, from).map((e) => [e.webhook_type, e.webhook_code, e.data.status])).toEqual([
      ['PAYMENT_INTENT', 'cancelled', 'CANCELLED'],
      ['PAYMENT_INTENT', 'charge_cancelled', 'CANCELLED'],
      ['PAYMENT_INTENT', 'charge_status', 'CANCELLED'],
    ]);
    await clock().setTo(gmt3('2026-11-20T07:00:00'));
    expect((await sim.call('GET', `${INTENTS}${id}/charges/${charge}/`)).body.status).toBe('CANCELLED');
  });

  it('at 23:59:00 GMT-3 the day before: 400 cancel_cutoff_passed, and the payment goes through on its date', async () => {
    const { id, charge } = await scheduledIntent('2026-11-20');
    await clock().setTo(gmt3('2026-11-19T23:59:00'));
    const refused = await cancelIntent(id);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'cancel_cutoff_passed' });
    expect((await cancelCharge(id, charge)).body[0].code).toBe('cancel_cutoff_passed');
    expect((await getIntent(id)).status).toBe('SCHEDULED');
    await clock().setTo(gmt3('2026-11-20T06:00:00'));
    expect((await getIntent(id)).status).toBe('SUCCEEDED');
    expect(
      (await sim.call('GET', '/payments/br/charges/', { query: { payment_intent: id } })).body.results[0]
        .status,
    ).toBe('SUCCEEDED');
    expect((await cancelIntent(id)).body[0].code).toBe('invalid_status');
  });

  it('cancelling the scheduled charge, across a month end, with the machine in another TZ', async () => {
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      const early = await scheduledIntent('2026-12-01');
      const late = await scheduledIntent('2026-12-01');
      // 30 November 23:59:00 GMT-3 is already 1 December 02:59:00 UTC (and 11:59 in Tokyo).
      await clock().setTo(gmt3('2026-11-30T23:58:59'));
      expect((await cancelCharge(early.id, early.charge)).status).toBe(204);
      expect((await getIntent(early.id)).status).toBe('CANCELLED');
      await clock().setTo(gmt3('2026-11-30T23:59:00'));
      expect((await cancelCharge(late.id, late.charge)).status).toBe(400);
    } finally {
      process.env.TZ = saved;
    }
  });

  it('a PENDING or immediate intent is not cancellable (400 invalid_status); unknown ids 404', async () => {
    await clock().setTo(gmt3('2026-11-02T09:00:00'));
    const created = await createIntent({
      beneficiary: (await createBusinessAccount(sim)).id,
      customer: (await createCustomer(sim)).id,
    });
    expect((await cancelIntent(created.body.id)).body[0].code).toBe('invalid_status');
    await authorize(created.body.id);
    const [charge] = await chargesOf(created.body.id);
    expect(charge).toMatchObject({ date: '2026-11-02', status: 'SUCCEEDED' });
    expect((await cancelCharge(created.body.id, charge.charge_id)).body[0].code).toBe('invalid_status');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await cancelIntent(unknown)).status).toBe(404);
    expect((await cancelCharge(created.body.id, unknown)).status).toBe(404);
  });
});
