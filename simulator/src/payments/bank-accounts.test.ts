import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  AURORA,
  businessAccountBody,
  createCustomer,
  HORIZONTE,
  nextAccountNumber,
  nextCnpj,
  V2,
} from '../../test-support/payments-test-kit.js';

let sim: CheckedSimulator;
const ACCOUNTS = '/payments/br/bank-accounts/';
const register = (body: Record<string, unknown>, version = false) =>
  sim.call('POST', ACCOUNTS, { body, ...(version && { headers: V2 }) });
const setActive = (id: string, active: boolean) =>
  sim.call('PATCH', `${ACCOUNTS}${id}/`, { body: { active } });

beforeAll(async () => {
  sim = await contractCheckedSimulator('bank-accounts');
});

describe('PAY-VERSION-HEADER (bank accounts)', () => {
  it('V1: flat holder document, no updated_at; V2: nested holder document and updated_at', async () => {
    const customer = await createCustomer(sim);
    const individual = {
      type: 'INDIVIDUAL',
      customer: customer.id,
      institution: AURORA,
      agency: '3064',
      number: nextAccountNumber(),
      account_type: 'SAVINGS',
    };
    const v1 = await register({ ...individual, holder: { name: 'Maria', identifier: customer.identifier } });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({
      customer: customer.id,
      holder: { identifier: customer.identifier },
      active: true,
    });
    expect(v1.body).not.toHaveProperty('updated_at');
    const v2 = await register(
      {
        ...individual,
        number: nextAccountNumber(),
        holder: { name: 'Maria', identifier: { type: 'CPF', number: customer.identifier } },
      },
      true,
    );
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({
      holder: { identifier: { type: 'CPF', number: customer.identifier } },
      updated_at: expect.any(String),
    });
    const listed = await sim.call('GET', ACCOUNTS, { headers: V2, query: { customer: customer.id } });
    expect(
      listed.body.results.map((a: { holder: { identifier: unknown } }) => typeof a.holder.identifier),
    ).toEqual(['object', 'object']);
    expect((await sim.call('GET', `${ACCOUNTS}${v2.body.id}/`)).body.holder.identifier).toBe(
      customer.identifier,
    );
    const mixed = await register(
      { ...individual, number: nextAccountNumber(), holder: { name: 'M', identifier: customer.identifier } },
      true,
    );
    expect(mixed.body[0]).toMatchObject({ code: 'invalid', field: 'holder.identifier' });
  });

  it('checks the holder, the customer and the institution', async () => {
    const customer = await createCustomer(sim);
    const noCustomer = await register({
      ...businessAccountBody(),
      type: 'INDIVIDUAL',
      holder: { name: 'M', identifier: customer.identifier },
    });
    expect(noCustomer.body[0]).toMatchObject({ code: 'required', field: 'customer' });
    const cnpjHolder = await register({
      ...businessAccountBody(),
      type: 'INDIVIDUAL',
      customer: customer.id,
    });
    expect(cnpjHolder.body[0]).toMatchObject({ code: 'invalid', field: 'holder.identifier' });
    expect((await register(businessAccountBody({ customer: customer.id }))).body[0].field).toBe('customer');
    const digits = await register(
      businessAccountBody({ holder: { name: 'X', identifier: '62819482000164' } }),
    );
    expect(digits.body[0]).toMatchObject({ code: 'invalid_identifier', field: 'holder.identifier' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await register(businessAccountBody({ institution: unknown }))).body[0]).toMatchObject({
      code: 'not_found',
      field: 'institution',
    });
    const ghost = await register({
      ...businessAccountBody(),
      type: 'INDIVIDUAL',
      customer: unknown,
      holder: { name: 'M', identifier: customer.identifier },
    });
    expect(ghost.status).toBe(404);
  });
});

describe('PAY-BANK-ACCOUNT-DUP', () => {
  it('refuses the details of an active account, ignores a deactivated one, and checks again on reactivation', async () => {
    const details = businessAccountBody();
    const first = await register(details);
    expect(first.status).toBe(201);
    const duplicate = await register({ ...details, holder: { name: 'Outra Ltda', identifier: nextCnpj() } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body[0]).toMatchObject({ code: 'duplicated', field: 'number' });
    const otherAgency = await register({ ...details, agency: '0002' });
    expect(otherAgency.status).toBe(201);
    const deactivated = await setActive(first.body.id, false);
    expect(deactivated.body).toMatchObject({ id: first.body.id, active: false });
    const again = await register(details);
    expect(again.status).toBe(201);
    const reactivate = await setActive(first.body.id, true);
    expect(reactivate.status).toBe(400);
    expect(reactivate.body[0].code).toBe('duplicated');
    expect((await setActive(again.body.id, false)).status).toBe(200);
    expect((await setActive(first.body.id, true)).body.active).toBe(true);
    const filtered = await sim.call('GET', ACCOUNTS, {
      query: { number: details.number, institution: HORIZONTE, active: 'false' },
    });
    expect(filtered.body.results.map((a: { id: string }) => a.id)).toEqual([again.body.id]);
    expect(
      (
        await sim.call('PATCH', `${ACCOUNTS}00000000-0000-4000-8000-000000000000/`, {
          body: { active: true },
        })
      ).status,
    ).toBe(404);
  });
});
