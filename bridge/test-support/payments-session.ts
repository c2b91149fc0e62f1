/**
 * Test support: a payments session for `ofkit replay`, on a frozen clock: a customer and a beneficiary
 * account (V1, then read in V2), an authorization confirmed (its first charge SCHEDULED) and one left
 * AWAITING_AUTHORIZATION, a scheduled Pix intent authorized (its charge SCHEDULED) and an immediate one
 * (its charge SUCCEEDED, with its inflow), an enrollment; then every read of them, in both formats.
 */
import { brazilianNumbers } from './brazilian-numbers.js';
import { AURORA, businessAccount } from './sample-payments.js';
import type { TrafficClient } from './traffic-client.js';

export const V2 = { 'x-service-api-resource-version': 'Payments-BR.V2' };
/** The session's virtual instant (09:00 GMT-3), frozen. */
export const PAYMENTS_AT = '2026-11-02T12:00:00.000Z';
/** The confirmed authorization's first charge date: processed at 06:00 GMT-3 that day. */
export const FIRST_CHARGE_DATE = '2026-11-10';

export interface PaymentsSession {
  confirmed: string;
  awaiting: string;
  scheduledIntent: string;
}

async function writes(call: TrafficClient['call']): Promise<PaymentsSession> {
  const next = brazilianNumbers(700);
  const customer = await call('POST', '/payments/br/customers/', {
    body: {
      identifier: next.cpf(),
      name: 'Maria Souza',
      email: 'maria@example.com',
      customer_type: 'INDIVIDUAL',
    },
  });
  const account = await call('POST', '/payments/br/bank-accounts/', { body: businessAccount(next) });
  const authorization = {
    customer: customer.body.id,
    beneficiary: account.body.id,
    institution: AURORA,
    description: 'Assinatura mensal',
    schedule: { frequency: 'MONTHLY', start_date: FIRST_CHARGE_DATE, occurrences: 3, amount: '89.90' },
    callback_url: 'https://app.example.com.br/retorno',
  };
  const path = '/payments/br/payment-authorizations/';
  const confirmed = (await call('POST', path, { body: authorization, headers: V2 })).body
    .payment_authorization_id;
  await call('POST', `/_ofkit/payment-authorizations/${confirmed}/confirm/`);
  const awaiting = (await call('POST', path, { body: authorization, headers: V2 })).body
    .payment_authorization_id;
  const intent = (scheduled_date?: string) =>
    call('POST', '/payments/br/payment-intents/', {
      body: {
        amount: '120.00',
        description: 'Pedido 9',
        provider: 'PIX',
        beneficiary: account.body.id,
        customer: { identifier: next.cpf(), name: 'Joao Lima', customer_type: 'INDIVIDUAL' },
        ...(scheduled_date && { scheduled_date }),
      },
    });
  const scheduledIntent = (await intent('2026-11-20')).body.id;
  const immediate = (await intent()).body.id;
  for (const id of [scheduledIntent, immediate])
    await call('POST', `/_ofkit/payment-intents/${id}/authorize/`);
  await call('POST', '/payments/br/enrollments/', {
    body: {
      customer: customer.body.id,
      institution: AURORA,
      platform: 'ANDROID',
      callback_url: 'https://app.example/b',
    },
  });
  return { confirmed, awaiting, scheduledIntent };
}

/** Writes first, then reads every payments object, lists and details, V1 and V2. */
export async function paymentsSession(client: TrafficClient): Promise<PaymentsSession> {
  const call = client.call;
  await call('PUT', '/_ofkit/clock/', { body: { now: PAYMENTS_AT, frozen: true } });
  const session = await writes(call);
  for (const headers of [{}, V2]) {
    const customers = await call('GET', '/payments/br/customers/', { headers });
    await call('GET', `/payments/br/customers/${customers.body.results[0].id}/`, { headers });
    const accounts = await call('GET', '/payments/br/bank-accounts/', { headers });
    await call('GET', `/payments/br/bank-accounts/${accounts.body.results[0].id}/`, { headers });
  }
  for (const id of [session.confirmed, session.awaiting]) {
    await call('GET', `/payments/br/payment-authorizations/${id}/`, { headers: V2 });
    await call('GET', `/payments/br/payment-authorizations/${id}/charges/`, { headers: V2 });
  }
  await call('GET', '/payments/br/payment-authorizations/', { headers: V2 });
  await call('GET', '/payments/br/payment-intents/');
  await call('GET', `/payments/br/payment-intents/${session.scheduledIntent}/charges/`);
  const charges = await call('GET', '/payments/br/charges/');
  await call('GET', `/payments/br/charges/${charges.body.results[0].charge_id}/`);
  await call('GET', '/payments/br/transactions/');
  await call('GET', '/payments/br/enrollments/');
  return session;
}
