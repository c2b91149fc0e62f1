import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { nextCnpj, nextCpf, V2 } from '../../test-support/payments-test-kit.js';
import { isValidCnpj, isValidCpf } from './brazilian-documents.js';

let sim: CheckedSimulator;
const CUSTOMERS = '/payments/br/customers/';
const address = {
  street: 'Rua Augusta',
  number: '1508',
  complement: null,
  neighborhood: 'Consolacao',
  city: 'Sao Paulo',
  state: 'SP',
  postal_code: '01304-001',
  country: 'BR',
};

beforeAll(async () => {
  sim = await contractCheckedSimulator('customers');
});

describe('PAY-VERSION-HEADER (customers)', () => {
  it('V1 without the header: flat identifier; V2 with Payments-BR.V2: nested identifier, address, updated_at', async () => {
    const cpf = nextCpf();
    const v1 = await sim.call('POST', CUSTOMERS, {
      body: { identifier: cpf, name: 'Maria', customer_type: 'INDIVIDUAL' },
    });
    expect(v1.status).toBe(201);
    expect(v1.body).toEqual({
      id: expect.any(String),
      created_at: '2026-11-02T12:00:00.000Z',
      identifier: cpf,
      name: 'Maria',
      email: null,
      phone: null,
      customer_type: 'INDIVIDUAL',
    });
    const asV2 = await sim.call('GET', `${CUSTOMERS}${v1.body.id}/`, { headers: V2 });
    expect(asV2.body).toMatchObject({
      identifier: { type: 'CPF', number: cpf },
      address: null,
      updated_at: expect.any(String),
    });
    const cnpj = nextCnpj();
    const v2 = await sim.call('POST', CUSTOMERS, {
      headers: V2,
      body: {
        identifier: { type: 'CNPJ', number: cnpj },
        name: 'Mercadinho Ltda',
        customer_type: 'BUSINESS',
        address,
      },
    });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ identifier: { type: 'CNPJ', number: cnpj }, address });
    expect((await sim.call('GET', `${CUSTOMERS}${v2.body.id}/`)).body).toMatchObject({ identifier: cnpj });
    expect((await sim.call('GET', `${CUSTOMERS}${v2.body.id}/`)).body).not.toHaveProperty('address');
  });

  it('a body of the other version than the header selects gets 400 naming `identifier`', async () => {
    const v2Body = {
      identifier: { type: 'CPF', number: nextCpf() },
      name: 'A',
      customer_type: 'INDIVIDUAL',
      address,
    };
    const noHeader = await sim.call('POST', CUSTOMERS, { body: v2Body });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body[0]).toMatchObject({ code: 'invalid', field: 'identifier' });
    const v1Body = { identifier: nextCpf(), name: 'A', customer_type: 'INDIVIDUAL' };
    expect((await sim.call('POST', CUSTOMERS, { headers: V2, body: v1Body })).body[0].field).toBe(
      'identifier',
    );
  });

  it('lists in the format the header selects, filtered by identifier and customer_type', async () => {
    const cpf = nextCpf();
    await sim.call('POST', CUSTOMERS, {
      body: { identifier: cpf, name: 'Filtro', customer_type: 'INDIVIDUAL' },
    });
    const v1 = await sim.call('GET', CUSTOMERS, { query: { identifier: cpf } });
    expect(v1.body).toMatchObject({ count: 1, results: [{ identifier: cpf }] });
    const v2 = await sim.call('GET', CUSTOMERS, {
      headers: V2,
      query: { identifier: cpf, customer_type: 'INDIVIDUAL' },
    });
    expect(v2.body.results[0].identifier).toEqual({ type: 'CPF', number: cpf });
    expect(
      (await sim.call('GET', CUSTOMERS, { query: { identifier: cpf, customer_type: 'BUSINESS' } })).body
        .count,
    ).toBe(0);
    expect((await sim.call('GET', `${CUSTOMERS}00000000-0000-4000-8000-000000000000/`)).status).toBe(404);
  });
});

describe('CPF and CNPJ check digits (customers, bank accounts, Pix keys)', () => {
  it('accepts the document examples and refuses wrong check digits, repeated digits and mismatched types', () => {
    expect(['52601815906', nextCpf()].every(isValidCpf)).toBe(true);
    expect(['62819482000163', '19935181000176', nextCnpj()].every(isValidCnpj)).toBe(true);
    expect(['52601815907', '52601815916', '11111111111'].some(isValidCpf)).toBe(false);
    expect(['62819482000164', '62819482000173', '00000000000000'].some(isValidCnpj)).toBe(false);
  });

  it('answers 400 invalid_identifier with the field, and 400 when customer_type and the document disagree', async () => {
    const wrong = await sim.call('POST', CUSTOMERS, {
      body: { identifier: '52601815907', name: 'A', customer_type: 'INDIVIDUAL' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body[0]).toMatchObject({
      code: 'invalid_identifier',
      field: 'identifier',
      message: expect.stringContaining('CPF'),
    });
    const wrongV2 = await sim.call('POST', CUSTOMERS, {
      headers: V2,
      body: {
        identifier: { type: 'CNPJ', number: '62819482000164' },
        name: 'B',
        customer_type: 'BUSINESS',
        address,
      },
    });
    expect(wrongV2.body[0]).toMatchObject({ code: 'invalid_identifier', field: 'identifier' });
    const mismatch = await sim.call('POST', CUSTOMERS, {
      body: { identifier: nextCnpj(), name: 'C', customer_type: 'INDIVIDUAL' },
    });
    expect(mismatch.body[0]).toMatchObject({ code: 'invalid', field: 'customer_type' });
  });
});
