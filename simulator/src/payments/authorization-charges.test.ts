import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  authorizationCharges,
  confirmAuthorization,
  createAuthorization,
  eventsOf,
  eventsSince,
  expectValidEvents,
  gmt3,
  V2,
} from '../../test-support/payments-test-kit.js';
import { arm, disarmAll } from '../core/armed-switches.js';

let sim: CheckedSimulator;
const tenant = () => sim.simulator.tenant('tenant-a');
const clock = () => tenant().clock;
const chargePath = (id: string, charge: string, rest = '') =>
  `/payments/br/payment-authorizations/${id}/charges/${charge}/${rest}`;
const getAuthorization = async (id: string) =>
  (await sim.call('GET', `/payments/br/payment-authorizations/${id}/`, { headers: V2 })).body;

/** An AUTHORIZED authorization created at 2026-11-02 09:00 GMT-3. */
async function authorized(schedule: Record<string, unknown> = {}) {
  await clock().setTo(gmt3('2026-11-02T09:00:00'));
  const { payment_authorization_id: id } = await createAuthorization(sim, { schedule });
  await confirmAuthorization(sim, id);
  const [charge] = await authorizationCharges(sim, id);
  return { id, charge: charge!.charge_id };
}

beforeAll(async () => {
  sim = await contractCheckedSimulator('authorization-charges');
});
afterEach(async () => {
  await disarmAll(tenant(), 'scenarios');
});
afterAll(() => expectValidEvents(sim));

describe('schedules on the virtual clock', () => {
  it('advancing past a charge date runs it (06:00:00 GMT-3), raises its events and schedules the next occurrence', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-10' });
    await clock().setTo(gmt3('2026-11-10T05:59:59'));
    expect((await authorizationCharges(sim, id))[0]?.status).toBe('SCHEDULED');
    const from = eventsOf(sim).length;
    await clock().advance(1000);
    const events = eventsSince(sim, from);
    expect(events.map((e) => [e.webhook_code, e.data.charge_id, e.data.status])).toEqual([
      ['charge_status', charge, 'PROCESSING'],
      ['charge_status', charge, 'SUCCEEDED'],
    ]);
    const [paid, next] = await authorizationCharges(sim, id);
    expect(paid).toMatchObject({ status: 'SUCCEEDED', paid_at: '2026-11-10T09:00:00.000Z', failure: null });
    expect(paid?.end_to_end_id).toMatch(/^E31872495202611100900[0-9a-f]{11}$/);
    expect(next).toMatchObject({ status: 'SCHEDULED', date: '2026-12-10' });
    expect((await getAuthorization(id)).next_charge_date).toBe('2026-12-10');
  });

  it('monthly dates keep the day, clamped at month ends; the last occurrence completes the authorization', async () => {
    const { id } = await authorized({ start_date: '2027-01-31', occurrences: 3 });
    await clock().setTo(gmt3('2027-04-01T00:00:00'));
    const charges = await authorizationCharges(sim, id);
    expect(charges.map((c) => [c.date, c.status])).toEqual([
      ['2027-01-31', 'SUCCEEDED'],
      ['2027-02-28', 'SUCCEEDED'],
      ['2027-03-31', 'SUCCEEDED'],
    ]);
    expect(await getAuthorization(id)).toMatchObject({ status: 'COMPLETED', next_charge_date: null });
    const statuses = eventsOf(sim).filter(
      (e) => e.data.payment_authorization_id === id && e.webhook_code === 'status',
    );
    expect(statuses.map((e) => e.data.status)).toEqual(['AUTHORIZED', 'COMPLETED']);
  });

  it('records one inflow transaction per paid charge, listed globally with the charge', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-03', occurrences: 1 });
    await clock().setTo(gmt3('2026-11-03T06:00:00'));
    const transactions = await sim.call('GET', '/payments/br/transactions/', { query: { charge } });
    expect(transactions.body.count).toBe(1);
    const [transaction] = transactions.body.results;
    expect(transaction).toMatchObject({ charge, type: 'INFLOW', amount: '89.90', status: 'SUCCEEDED' });
    expect((await sim.call('GET', `/payments/br/transactions/${transaction.id}/`)).body).toEqual(transaction);
    const global = await sim.call('GET', '/payments/br/charges/', { query: { payment_authorization: id } });
    expect(global.body.results.map((c: { charge_id: string }) => c.charge_id)).toEqual([charge]);
    expect((await sim.call('GET', `/payments/br/charges/${charge}/`)).body.status).toBe('SUCCEEDED');
    expect((await sim.call('GET', '/payments/br/charges/00000000-0000-4000-8000-000000000000/')).status).toBe(
      404,
    );
  });
});

describe('PAY-AUTH-CHARGE-CANCEL-CUTOFF', () => {
  const cancel = (id: string, charge: string) =>
    sim.call('POST', chargePath(id, charge, 'cancel/'), { headers: V2 });

  it('at 21:59:59 GMT-3 the day before: 204, CANCELLED with its events, and the schedule moves on', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-10' });
    await clock().setTo(gmt3('2026-11-09T21:59:59'));
    const from = eventsOf(sim).length;
    expect((await cancel(id, charge)).status).toBe(204);
    expect(eventsSince(sim, from).map((e) => [e.webhook_code, e.data.charge_id])).toEqual([
      ['charge_cancelled', charge],
      ['charge_status', charge],
    ]);
    const [cancelled, next] = await authorizationCharges(sim, id);
    expect(cancelled?.status).toBe('CANCELLED');
    expect(next).toMatchObject({ status: 'SCHEDULED', date: '2026-12-10' });
  });

  it('at 22:00:00 GMT-3 the day before: 400 cancel_cutoff_passed, unchanged, and the charge goes through', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-10' });
    await clock().setTo(gmt3('2026-11-09T22:00:00'));
    const refused = await cancel(id, charge);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'cancel_cutoff_passed' });
    expect(refused.body[0].message).toContain('2026-11-09 22:00:00 GMT-3');
    await clock().setTo(gmt3('2026-11-10T06:00:00'));
    expect((await sim.call('GET', chargePath(id, charge), { headers: V2 })).body.status).toBe('SUCCEEDED');
  });

  it('across a month end and whatever the machine TZ (charge on 1 January 2027)', async () => {
    const saved = process.env.TZ;
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      const early = await authorized({ start_date: '2027-01-01' });
      const late = await authorized({ start_date: '2027-01-01' });
      await clock().setTo(gmt3('2026-12-31T21:59:59'));
      expect((await cancel(early.id, early.charge)).status).toBe(204);
      await clock().setTo(gmt3('2026-12-31T22:00:00'));
      expect((await cancel(late.id, late.charge)).status).toBe(400);
    } finally {
      process.env.TZ = saved;
    }
  });

  it('a charge that is not SCHEDULED gets 400 invalid_status; a charge of another authorization 404', async () => {
    const first = await authorized({ start_date: '2026-11-03' });
    const other = await authorized({ start_date: '2026-11-03' });
    await clock().setTo(gmt3('2026-11-03T07:00:00'));
    const paid = await cancel(first.id, first.charge);
    expect(paid.body[0].code).toBe('invalid_status');
    expect((await cancel(first.id, other.charge)).status).toBe(404);
    expect((await sim.call('GET', chargePath(first.id, other.charge), { headers: V2 })).status).toBe(404);
  });
});

describe('PAY-CHARGE-RETRY', () => {
  const retry = (id: string, charge: string) =>
    sim.call('POST', chargePath(id, charge, 'retry/'), { headers: V2 });

  it('the scenario next_charge_fails fails the next charge; a retry sends it again and it succeeds', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-04', occurrences: 1 });
    await arm(tenant(), 'scenarios', {
      id: 's-1',
      scenario: 'next_charge_fails',
      institution: null,
      link: null,
      remaining: 1,
    });
    await clock().setTo(gmt3('2026-11-04T06:00:00'));
    const failed = (await sim.call('GET', chargePath(id, charge), { headers: V2 })).body;
    expect(failed).toMatchObject({
      status: 'FAILED',
      failure: { code: 'insufficient_funds' },
      paid_at: null,
    });
    expect((await getAuthorization(id)).status).toBe('AUTHORIZED');
    const from = eventsOf(sim).length;
    const retried = await retry(id, charge);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'PROCESSING', retries: 1, failure: null });
    expect(retried.body.end_to_end_id).not.toBe(failed.end_to_end_id);
    expect((await sim.call('GET', chargePath(id, charge), { headers: V2 })).body.status).toBe('SUCCEEDED');
    expect(eventsSince(sim, from).map((e) => [e.webhook_code, e.data.status])).toEqual([
      ['charge_status', 'PROCESSING'],
      ['charge_status', 'SUCCEEDED'],
      ['status', 'COMPLETED'],
    ]);
  });

  it('retrying a charge that has not failed is an error (400 charge_not_failed)', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-10' });
    const scheduled = await retry(id, charge);
    expect(scheduled.status).toBe(400);
    expect(scheduled.body[0].code).toBe('charge_not_failed');
    await clock().setTo(gmt3('2026-11-10T06:00:00'));
    expect((await retry(id, charge)).body[0].code).toBe('charge_not_failed');
  });

  it('the trigger amount 999.99 fails the first attempt only; a scenario at the payer institution; 3 retries at most', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-05', amount: '999.99', occurrences: 1 });
    await clock().setTo(gmt3('2026-11-05T06:00:00'));
    expect((await authorizationCharges(sim, id))[0]?.status).toBe('FAILED');
    await arm(tenant(), 'scenarios', {
      id: 's-2',
      scenario: 'next_charge_fails',
      institution: 'banco_aurora_br',
      link: null,
      remaining: 2,
    });
    for (const attempt of [1, 2]) {
      expect((await retry(id, charge)).body.retries).toBe(attempt);
      expect((await authorizationCharges(sim, id))[0]?.status).toBe('FAILED');
    }
    expect((await retry(id, charge)).body.retries).toBe(3);
    expect((await authorizationCharges(sim, id))[0]?.status).toBe('SUCCEEDED');
    await arm(tenant(), 'scenarios', {
      id: 's-3',
      scenario: 'next_charge_fails',
      institution: null,
      link: null,
      remaining: 4,
    });
    const other = await authorized({ start_date: '2026-11-06', occurrences: 1 });
    await clock().setTo(gmt3('2026-11-06T06:00:00'));
    for (let n = 0; n < 3; n++) await retry(other.id, other.charge);
    const exhausted = await retry(other.id, other.charge);
    expect(exhausted.body[0].code).toBe('retry_limit_reached');
  });

  it('a cancelled authorization allows no retry (400 invalid_status)', async () => {
    const { id, charge } = await authorized({ start_date: '2026-11-07' });
    await arm(tenant(), 'scenarios', {
      id: 's-4',
      scenario: 'next_charge_fails',
      institution: null,
      link: null,
      remaining: 1,
    });
    await clock().setTo(gmt3('2026-11-07T06:00:00'));
    await sim.call('POST', `/payments/br/payment-authorizations/${id}/cancel/`, { headers: V2 });
    expect((await retry(id, charge)).body[0].code).toBe('invalid_status');
  });
});
