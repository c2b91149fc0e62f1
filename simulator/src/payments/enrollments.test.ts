import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { AURORA, createCustomer, HORIZONTE } from '../../test-support/payments-test-kit.js';

let sim: CheckedSimulator;
const ENROLLMENTS = '/payments/br/enrollments/';
const clock = () => sim.simulator.tenant('tenant-a').clock;

async function begin(customer: string, institution = AURORA) {
  const created = await sim.call('POST', ENROLLMENTS, {
    body: { customer, institution, platform: 'ANDROID', callback_url: 'https://app.example.com/biometria' },
  });
  expect(created.status).toBe(201);
  const state = new URL(created.body.redirect_url).searchParams.get('state')!;
  return { id: created.body.enrollment_id as string, state };
}
const complete = (body: Record<string, unknown>) =>
  sim.call('POST', `${ENROLLMENTS}complete-redirection/`, { body });
const success = { code: 'SplxlOBeZQQYbYS6WxSbIA', id_token: 'eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln' };

beforeAll(async () => {
  sim = await contractCheckedSimulator('enrollments');
});

describe('PAY-ENROLLMENT', () => {
  it('needs an existing customer (and institution): 404 otherwise', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const body = {
      customer: unknown,
      institution: AURORA,
      platform: 'IOS',
      callback_url: 'https://a.example.com/cb',
    };
    const refused = await sim.call('POST', ENROLLMENTS, { body });
    expect(refused.status).toBe(404);
    expect(refused.body[0].field).toBe('customer');
    const customer = await createCustomer(sim);
    expect(
      (
        await sim.call('POST', ENROLLMENTS, {
          body: { ...body, customer: customer.id, institution: unknown },
        })
      ).status,
    ).toBe(404);
  });

  it('complete-redirection with the success parameters completes it, with the error parameters fails it', async () => {
    const customer = await createCustomer(sim);
    const ok = await begin(customer.id);
    expect((await sim.call('GET', `${ENROLLMENTS}${ok.id}/`)).body).toMatchObject({
      status: 'PENDING',
      failure: null,
    });
    const wrongState = await complete({ enrollment_id: ok.id, state: 'nope', ...success });
    expect(wrongState.body[0]).toMatchObject({ code: 'invalid_state', field: 'state' });
    const done = await complete({ enrollment_id: ok.id, state: ok.state, ...success });
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', redirect_url: null });
    expect((await complete({ enrollment_id: ok.id, state: ok.state, ...success })).body[0].code).toBe(
      'invalid_status',
    );
    const ko = await begin(customer.id);
    const failed = await complete({
      enrollment_id: ko.id,
      state: ko.state,
      error: 'access_denied',
      error_description: 'User cancelled',
    });
    expect(failed.body).toMatchObject({
      status: 'FAILED',
      failure: { error: 'access_denied', error_description: 'User cancelled' },
    });
    const unknown = await complete({
      enrollment_id: '00000000-0000-4000-8000-000000000000',
      state: 's',
      ...success,
    });
    expect(unknown.status).toBe(404);
  });

  it('an enrollment not completed within 30 minutes expires', async () => {
    const customer = await createCustomer(sim);
    const pending = await begin(customer.id);
    await clock().advance(30 * 60_000);
    expect((await sim.call('GET', `${ENROLLMENTS}${pending.id}/`)).body.status).toBe('EXPIRED');
    expect(
      (await complete({ enrollment_id: pending.id, state: pending.state, ...success })).body[0].code,
    ).toBe('invalid_status');
  });

  it('lists filter by customer__identifier, by customer with institution, and by status', async () => {
    const maria = await createCustomer(sim);
    const joao = await createCustomer(sim);
    const a = await begin(maria.id, AURORA);
    const b = await begin(maria.id, HORIZONTE);
    const c = await begin(joao.id, AURORA);
    await complete({ enrollment_id: b.id, state: b.state, ...success });
    const ids = async (query: Record<string, string>) =>
      (await sim.call('GET', ENROLLMENTS, { query })).body.results.map(
        (e: { enrollment_id: string }) => e.enrollment_id,
      );
    expect(await ids({ customer__identifier: maria.identifier })).toEqual([a.id, b.id]);
    expect(await ids({ customer: maria.id, institution: AURORA })).toEqual([a.id]);
    expect(await ids({ customer__identifier: maria.identifier, status: 'SUCCEEDED' })).toEqual([b.id]);
    expect(await ids({ customer: joao.id, status: 'PENDING' })).toEqual([c.id]);
    expect(await ids({ customer__identifier: '52601815906' })).toEqual([]);
  });
});

describe('TOKEN-WIDGET (payments) and payment institutions', () => {
  it('POST /payments/br/token/ answers 201 with a short-lived token for an existing customer, 404 otherwise', async () => {
    const customer = await createCustomer(sim);
    const token = await sim.call('POST', '/payments/br/token/', { body: { customer: customer.id } });
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ expires_in: 600 });
    const unknown = await sim.call('POST', '/payments/br/token/', {
      body: { customer: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
  });

  it('lists the payment institutions, filterable', async () => {
    const all = await sim.call('GET', '/payments/br/institutions/');
    expect(all.body.count).toBe(3);
    const aurora = await sim.call('GET', '/payments/br/institutions/', {
      query: { name: 'banco_aurora_br' },
    });
    expect(aurora.body.results).toEqual([expect.objectContaining({ id: AURORA, ispb: '31872495' })]);
  });
});
