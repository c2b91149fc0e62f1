/**
 * PAY-SANDBOX: against a sandbox target (config `environment: sandbox` with its sandbox key), payment
 * initiation (creating a payment intent, a payment authorization or an enrollment, with bodies that
 * are valid in production) is refused with a 4xx other than 401 and the error array, and nothing is
 * created: reading the list (which still works) shows no such record. Skipped against production.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { describeAnswer, expectErrorArray } from '../expect-response.js';
import { defineRule, fail, type RunContext, skipForEnvironment } from '../rule.js';
import { authorizationBody } from './authorization-steps.js';
import { AUTHORIZATIONS, INTENTS, listResults, PAYMENTS, V2_HEADERS } from './payment-api.js';
import { amountArbitrary, oneChargeSchedule } from './payment-bodies.js';
import { addDays } from './payment-dates.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

interface Input {
  initiation: 'payment-intent' | 'payment-authorization' | 'enrollment';
  amount: string;
  daysAhead: number;
}

/** The initiations it sends, and the lists it reads back. */
const CREATES = ['createPaymentIntent', 'createPaymentAuthorization', 'createEnrollment'];
const OPERATIONS = ['listPaymentIntents', 'listPaymentAuthorizations', 'listEnrollments'];

interface Initiation {
  url: string;
  json: JsonObject;
  headers: Record<string, string>;
  query: Record<string, string>;
}

type Builder = (input: Input, run: RunContext, fixture: PaymentFixture) => Initiation;

/** Each initiation request, and the list (with a filter) that must not show what it would create. */
const INITIATIONS: Record<Input['initiation'], Builder> = {
  'payment-intent': (input, _run, fixture) => {
    const external = `pay-sandbox-${fixture.nextSerial()}`;
    const json = {
      amount: input.amount,
      description: 'Pedido',
      provider: 'PIX',
      scheduled_date: addDays(fixture.today, input.daysAhead),
      external_id: external,
      beneficiary: fixture.beneficiary,
      customer: fixture.customer.id,
    };
    return { url: INTENTS, json, headers: {}, query: { external_id: external } };
  },
  'payment-authorization': (input, run, fixture) => {
    const schedule = oneChargeSchedule(addDays(fixture.today, input.daysAhead), input.amount, false);
    const json = authorizationBody(fixture, run.config.payments, schedule);
    return { url: AUTHORIZATIONS, json, headers: V2_HEADERS, query: { customer: fixture.customer.id } };
  },
  enrollment: (_input, run, fixture) => {
    const customer = fixture.customer.id;
    const institution = run.config.payments.payerInstitution;
    const json = { customer, institution, platform: 'WEB', callback_url: 'https://app.example.com.br/b' };
    return { url: `${PAYMENTS}/enrollments/`, json, headers: {}, query: { customer, institution } };
  },
};

async function runInitiation(input: Input, run: RunContext, fixture: PaymentFixture): Promise<void> {
  const call = INITIATIONS[input.initiation](input, run, fixture);
  const what = `creating a ${input.initiation} in the sandbox`;
  const answer = await run.http.request({
    method: 'POST',
    url: call.url,
    json: call.json,
    headers: call.headers,
  });
  if (answer.status < 400 || answer.status >= 500 || answer.status === 401) {
    fail(`${what}: payment initiation must be refused (a 4xx other than 401), got ${describeAnswer(answer)}`);
  }
  expectErrorArray(run.document, answer, what);
  const listed = await listResults(
    run.http,
    call.url,
    `reading the ${input.initiation} list`,
    call.query,
    call.headers,
  );
  if (listed.length > 0)
    fail(`${what}: refused, yet the list shows ${JSON.stringify(listed[0]).slice(0, 200)}`);
}

export const paySandbox = defineRule<Input, PaymentFixture>({
  id: 'PAY-SANDBOX',
  area: 'payments',
  operations: paymentOperations([...CREATES, ...OPERATIONS]),
  runs: 6,
  async prepare(suite) {
    if (suite.environment !== 'sandbox') {
      return skipForEnvironment(
        'needs a sandbox target (GET /api/ names production; --environment sandbox with the sandbox key to say otherwise)',
      );
    }
    return preparePayments(suite, OPERATIONS);
  },
  arbitrary: () =>
    fc.record({
      initiation: fc.constantFrom<Input['initiation']>(
        'payment-intent',
        'payment-authorization',
        'enrollment',
      ),
      amount: amountArbitrary(),
      daysAhead: fc.integer({ min: 2, max: 90 }),
    }),
  examples: () =>
    (['payment-intent', 'payment-authorization', 'enrollment'] as const).map((kind) => ({
      initiation: kind,
      amount: '10.00',
      daysAhead: 5,
    })),
  check: runInitiation,
});
