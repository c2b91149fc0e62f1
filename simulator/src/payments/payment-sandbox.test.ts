import { beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions, CallResult } from '../../test-support/contract-checked-simulator.js';
import {
  AURORA,
  businessAccountBody,
  nextCpf,
  sandboxSimulator,
  V2,
} from '../../test-support/payments-test-kit.js';

let call: (method: string, path: string, options?: CallOptions) => Promise<CallResult>;

beforeAll(async () => {
  call = await sandboxSimulator();
});

describe('PAY-SANDBOX', () => {
  it('payment initiation answers 403 payment_initiation_unavailable in the sandbox', async () => {
    const customer = await call('POST', '/payments/br/customers/', {
      body: { identifier: nextCpf(), name: 'Maria', customer_type: 'INDIVIDUAL' },
    });
    expect(customer.status).toBe(201);
    const account = await call('POST', '/payments/br/bank-accounts/', { body: businessAccountBody() });
    expect(account.status).toBe(201);
    const schedule = { frequency: 'MONTHLY', start_date: '2026-11-10', amount: '10.00' };
    const initiations: [string, unknown, Record<string, string>?][] = [
      [
        '/payments/br/payment-intents/',
        {
          amount: '1.00',
          description: 'x',
          provider: 'PIX',
          beneficiary: account.body.id,
          customer: customer.body.id,
        },
      ],
      [
        '/payments/br/payment-authorizations/',
        {
          customer: customer.body.id,
          beneficiary: account.body.id,
          institution: AURORA,
          description: 'x',
          schedule,
          callback_url: 'https://a.example.com/',
        },
        V2,
      ],
      [
        '/payments/br/enrollments/',
        {
          customer: customer.body.id,
          institution: AURORA,
          platform: 'WEB',
          callback_url: 'https://a.example.com/',
        },
      ],
      [
        '/payments/br/payment-authorizations/8151c14d-056e-4450-bfd4-1d7d50c7cce2/charges/2126f32c-9c1e-4fce-8d6b-9cca9a273af6/retry/',
        undefined,
        V2,
      ],
    ];
    for (const [path, body, headers] of initiations) {
      const refused = await call('POST', path, {
        ...(body !== undefined && { body }),
        ...(headers && { headers }),
      });
      expect(refused.status, path).toBe(403);
      expect(refused.body).toEqual([expect.objectContaining({ code: 'payment_initiation_unavailable' })]);
    }
  });

  it('reading lists still works in the sandbox', async () => {
    const lists: [string, Record<string, string>?][] = [
      ['/payments/br/institutions/'],
      ['/payments/br/customers/'],
      ['/payments/br/bank-accounts/'],
      ['/payments/br/payment-intents/'],
      ['/payments/br/payment-authorizations/', V2],
      ['/payments/br/charges/'],
      ['/payments/br/transactions/'],
      ['/payments/br/enrollments/'],
    ];
    for (const [path, headers] of lists) {
      const read = await call('GET', path, headers ? { headers } : {});
      expect(read.status, path).toBe(200);
    }
    expect((await call('GET', '/payments/br/customers/')).body.count).toBe(1);
    expect((await call('GET', '/payments/br/payment-intents/')).body.count).toBe(0);
  });

  it('the sandbox refuses production keys (AUTH-ENV-KEYS)', async () => {
    expect((await call('GET', '/payments/br/institutions/', { as: 'tenant-a:secret-a' })).status).toBe(401);
  });
});
