/**
 * The reference client creates a Pix payment intent (PAY-INTENT-CONFIGS, PAY-INTENT-PIX-PATCH), a
 * recurring payment authorization with the V2 header (PAY-AUTH-V2-REQUIRED) and cancels it
 * (PAY-AUTH-CANCEL-CUTOFF).
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { date, dateTime, EXAMPLE_IDS, fromState, uuid } from './matchers.js';
import { AUTHORIZATION, clientFor, createReferencePact, JSON_REQUEST } from './reference-pact.js';

const { regex } = MatchersV3;
const pact = createReferencePact();
const V2 = { 'X-Service-API-Resource-Version': 'Payments-BR.V2' } as const;

describe('Pact: payment intents (PAY-INTENT-CONFIGS)', () => {
  it('creates an intent paying a Pix key, for a customer created in the same request: 201', async () => {
    const intent = {
      amount: '45.50',
      description: 'Pedido 4480 - paes e frios',
      provider: 'PIX',
      external_id: 'pedido-4480',
      pix_key: { type: 'CNPJ', value: '62819482000163' },
      customer: { identifier: '52601815906', name: 'Maria Aparecida Souza', customer_type: 'INDIVIDUAL' },
    } as const;
    // PAY-INTENT-PIX-PATCH: created with a Pix key it waits in REQUIRES_ACTION, no authorization URL yet.
    const created = {
      ...intent,
      id: uuid(EXAMPLE_IDS.paymentIntent),
      created_at: dateTime('2026-11-06T10:00:00.000Z'),
      updated_at: dateTime('2026-11-06T10:00:00.000Z'),
      status: 'REQUIRES_ACTION',
      currency: 'BRL',
      customer: uuid(EXAMPLE_IDS.customer),
      beneficiary: null,
      scheduled_date: null,
      authorization_url: null,
      cancelled_at: null,
    };
    await pact
      .addInteraction()
      .uponReceiving('a creation of a payment intent to a Pix key for a new customer')
      .withRequest('POST', '/payments/br/payment-intents/', (request) =>
        request.headers(JSON_REQUEST).jsonBody(intent),
      )
      .willRespondWith(201, (response) => response.jsonBody(created))
      .executeTest(async (mockServer) => {
        const { data, response } = await clientFor(mockServer).POST('/payments/br/payment-intents/', {
          body: intent,
        });
        expect(response.status).toBe(201);
        expect(data?.status).toBe('REQUIRES_ACTION');
      });
  });
});

describe('Pact: payment authorizations (PAY-AUTH-V2-REQUIRED, PAY-AUTH-CANCEL-CUTOFF)', () => {
  const sent = {
    customer: EXAMPLE_IDS.customer,
    beneficiary: EXAMPLE_IDS.beneficiary,
    institution: EXAMPLE_IDS.paymentInstitution,
    description: 'Assinatura mensal Clube do Pao',
    external_id: 'assinatura-000123',
    schedule: { frequency: 'MONTHLY', start_date: '2026-12-10', occurrences: 12, amount: '89.90' },
    callback_url: 'https://app.paodourado.com.br/pagamentos/retorno',
  } as const;
  const request = {
    ...sent,
    customer: fromState('{customerId}', sent.customer),
    beneficiary: fromState('{beneficiaryId}', sent.beneficiary),
    institution: fromState('{institutionId}', sent.institution),
    schedule: { ...sent.schedule, start_date: fromState('{startDate}', sent.schedule.start_date) },
  };

  it('creates an authorization with Payments-BR.V2: 201, awaiting the user', async () => {
    const created = {
      ...sent,
      payment_authorization_id: uuid(EXAMPLE_IDS.paymentAuthorization),
      created_at: dateTime(),
      updated_at: dateTime(),
      status: 'AWAITING_AUTHORIZATION',
      status_reason: null,
      customer: uuid(sent.customer),
      beneficiary: uuid(sent.beneficiary),
      institution: uuid(sent.institution),
      schedule: { ...sent.schedule, start_date: date(sent.schedule.start_date), end_date: null },
      currency: 'BRL',
      authorization_url: regex('^https?://\\S+$', 'https://consentimento.bancoaurora.com.br/autorizar?pa=1'),
      expires_at: dateTime('2026-11-01T12:40:00.000Z'),
      authorized_at: null,
      cancelled_at: null,
      next_charge_date: null,
    };
    await pact
      .addInteraction()
      .given('a customer, a business bank account and a payment institution exist')
      .uponReceiving('a creation of a monthly payment authorization with the V2 header')
      .withRequest('POST', '/payments/br/payment-authorizations/', (builder) =>
        builder.headers({ ...JSON_REQUEST, ...V2 }).jsonBody(request),
      )
      .willRespondWith(201, (response) => response.jsonBody(created))
      .executeTest(async (mockServer) => {
        const { data } = await clientFor(mockServer).POST('/payments/br/payment-authorizations/', {
          params: { header: V2 },
          body: sent,
        });
        expect(data?.status).toBe('AWAITING_AUTHORIZATION');
      });
  });

  it('cancels an authorization awaiting the user: 204', async () => {
    const id = EXAMPLE_IDS.paymentAuthorization;
    const path = fromState(
      '/payments/br/payment-authorizations/{paymentAuthorizationId}/cancel/',
      `/payments/br/payment-authorizations/${id}/cancel/`,
    );
    await pact
      .addInteraction()
      .given('a payment authorization awaiting authorization exists')
      .uponReceiving('a cancellation of a payment authorization with the V2 header')
      .withRequest('POST', path, (builder) => builder.headers({ ...AUTHORIZATION, ...V2 }))
      .willRespondWith(204)
      .executeTest(async (mockServer) => {
        const { response } = await clientFor(mockServer).POST(
          '/payments/br/payment-authorizations/{payment_authorization_id}/cancel/',
          { params: { header: V2, path: { payment_authorization_id: id } } },
        );
        expect(response.status).toBe(204);
      });
  });
});
