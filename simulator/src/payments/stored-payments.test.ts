/**
 * storedPayments inverts the payments views: every object the simulator stores, read back through the
 * API's lists (V2, which shows every member), becomes exactly the stored record again (private
 * members included); a snapshot import arms again the jobs the payments objects wait for, so the
 * schedule, the expiries and the intents' charges run on from there in the importing tenant.
 */
import { describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  AURORA,
  confirmAuthorization,
  createAuthorization,
  createBusinessAccount,
  createCustomer,
  DAY,
  gmt3,
  nextCpf,
  V2,
} from '../../test-support/payments-test-kit.js';
import { PAYMENT_COLLECTIONS, storedPayments } from './stored-payments.js';

const tenantClock = (sim: CheckedSimulator) => sim.simulator.tenant('tenant-a').clock;

/** Customers, accounts, an authorization with a settled and a scheduled charge, an intent, an enrollment. */
async function paymentsTenant(sim: CheckedSimulator): Promise<void> {
  await tenantClock(sim).setTo(gmt3('2026-11-02T09:00:00'));
  const customer = (await createCustomer(sim, { email: 'maria@example.com' })).id;
  const beneficiary = (await createBusinessAccount(sim)).id;
  const { payment_authorization_id: id } = await createAuthorization(sim, { customer, beneficiary });
  await confirmAuthorization(sim, id);
  await createAuthorization(sim, { customer, beneficiary });
  await tenantClock(sim).advance(9 * DAY);
  const intent = await sim.call('POST', '/payments/br/payment-intents/', {
    body: {
      amount: '120.00',
      description: 'Pedido 9',
      provider: 'PIX',
      beneficiary,
      customer: { identifier: nextCpf(), name: 'Joao Lima', customer_type: 'INDIVIDUAL' },
    },
  });
  expect(intent.status).toBe(201);
  expect((await sim.call('POST', `/_ofkit/payment-intents/${intent.body.id}/authorize/`)).status).toBe(200);
  const enrollment = await sim.call('POST', '/payments/br/enrollments/', {
    body: { customer, institution: AURORA, platform: 'ANDROID', callback_url: 'https://app.example/b' },
  });
  expect(enrollment.status).toBe(201);
}

/** Every payments object as the API's lists serve it (V2). */
async function served(sim: CheckedSimulator): Promise<Record<string, Record<string, unknown>[]>> {
  const records: Record<string, Record<string, unknown>[]> = {};
  for (const collection of PAYMENT_COLLECTIONS) {
    const page = await sim.call('GET', `${collection}?page_size=1000`, { headers: V2 });
    expect(page.status, collection).toBe(200);
    records[collection] = page.body.results;
  }
  return records;
}

async function storedCollections(sim: CheckedSimulator, tenant = 'tenant-a') {
  const { collections } = await sim.simulator.tenant(tenant).store.exportTenant();
  return Object.fromEntries(PAYMENT_COLLECTIONS.map((name) => [name, collections[name] ?? []]));
}

describe('storedPayments (the inverse of the payments views)', () => {
  it('turns every served payments object back into the record the store keeps, private members included', async () => {
    const sim = await contractCheckedSimulator('stored-payments');
    await paymentsTenant(sim);
    const { collections, refused } = storedPayments(await served(sim));
    expect(refused).toEqual([]);
    const stored = await storedCollections(sim);
    for (const name of PAYMENT_COLLECTIONS) expect(stored[name]!.length, name).toBeGreaterThan(0);
    const charges = stored['/payments/br/charges/'] as unknown as { status: string }[];
    expect(charges.map((charge) => charge.status).sort()).toEqual(['SCHEDULED', 'SUCCEEDED', 'SUCCEEDED']);
    expect(collections).toEqual(stored);
  });

  it('derives from the V1 views what they leave out, and refuses records without their id', () => {
    const { collections, refused } = storedPayments({
      '/payments/br/customers/': [
        {
          id: 'c1',
          created_at: '2026-11-02T12:00:00.000Z',
          identifier: '52998224725',
          name: 'Maria',
          email: null,
          phone: null,
          customer_type: 'INDIVIDUAL',
        },
      ],
      '/payments/br/enrollments/': [{ enrollment_id: 'e1', status: 'SUCCEEDED', redirect_url: null }],
      '/payments/br/charges/': [{ id: 'no-charge-id' }],
      '/payments/br/refunds/': [{ id: 'r1' }],
    });
    expect(collections['/payments/br/customers/']).toEqual([
      expect.objectContaining({ id: 'c1', updated_at: '2026-11-02T12:00:00.000Z', address: null }),
    ]);
    expect(collections['/payments/br/enrollments/']).toEqual([
      expect.objectContaining({ id: 'e1', _state: 'replayed-e1' }),
    ]);
    expect(refused).toEqual([
      { collection: '/payments/br/charges/', id: 'no-charge-id', reason: 'it has no charge_id' },
      {
        collection: '/payments/br/refunds/',
        id: 'r1',
        reason: 'the simulator keeps no payments objects of this collection',
      },
    ]);
  });
});

describe('a snapshot import arms the jobs its payments objects wait for', () => {
  it('runs the scheduled charges, moves the schedule on and expires what waited, in the importing tenant', async () => {
    const sim = await contractCheckedSimulator('stored-payments-jobs');
    await paymentsTenant(sim);
    const snapshot = (await sim.call('GET', '/_ofkit/snapshot/')).body;
    const B = 'tenant-b:secret-b';
    expect((await sim.call('PUT', '/_ofkit/snapshot/', { as: B, body: snapshot })).status).toBe(204);
    const inB = async (collection: string) =>
      (await sim.call('GET', `${collection}?page_size=1000`, { as: B, headers: V2 })).body.results;
    expect(await inB('/payments/br/enrollments/')).toEqual([expect.objectContaining({ status: 'PENDING' })]);
    // A month on: the second occurrence (2026-12-10) ran, the third is scheduled.
    const advanced = await sim.call('POST', '/_ofkit/clock/advance/', {
      as: B,
      body: { seconds: 30 * 86_400 },
    });
    expect(advanced.status).toBe(200);
    const authorizations = await inB('/payments/br/payment-authorizations/');
    expect(authorizations.map((a: { status: string }) => a.status).sort()).toEqual(['AUTHORIZED', 'EXPIRED']);
    const charges = (await inB('/payments/br/charges/')) as {
      date: string;
      status: string;
      payment_authorization: string | null;
    }[];
    expect(
      charges.filter((charge) => charge.payment_authorization !== null).map((c) => [c.date, c.status]),
    ).toEqual([
      ['2026-11-10', 'SUCCEEDED'],
      ['2026-12-10', 'SUCCEEDED'],
      ['2027-01-10', 'SCHEDULED'],
    ]);
    expect(await inB('/payments/br/enrollments/')).toEqual([expect.objectContaining({ status: 'EXPIRED' })]);
    // The exporting tenant's own objects did not move.
    expect(await sim.call('GET', '/payments/br/enrollments/', { headers: V2 })).toMatchObject({
      body: { results: [expect.objectContaining({ status: 'PENDING' })] },
    });
  });
});
