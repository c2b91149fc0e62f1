/**
 * PAY-INTENT-CONFIGS: POST /payments/br/payment-intents/ accepts each of the five beneficiary/payer
 * configurations (Pix key or bank account; payer registered or created in the request): 201 with a
 * body valid against the document, naming the payer and beneficiary it was given (a payer or an account
 * created in the request by its new id, readable with the details sent), the amount and the date.
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { PaymentsConfig } from '../../target/target-config.js';
import { expectUsable } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { sameValue } from '../same-value.js';
import {
  getIntent,
  INTENT_CONFIGS,
  type IntentInput,
  intentBody,
  intentInputArbitrary,
} from './intent-steps.js';
import { expectObject, member, PAYMENTS } from './payment-api.js';
import { digitsOf } from './payment-bodies.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

const OPERATIONS = ['createPaymentIntent', 'getPaymentIntent', 'getCustomer', 'getBankAccount'];

function expectSame(what: string, got: unknown, wanted: unknown): void {
  // The same members in another order are the same value.
  if (!sameValue(got, wanted)) {
    fail(`${what}: the intent has ${JSON.stringify(got)}, the request sent ${JSON.stringify(wanted)}`);
  }
}

async function checkPayer(run: RunContext, intent: JsonObject, body: JsonObject, fixture: PaymentFixture) {
  const payer = member(intent, 'customer', 'the created intent');
  if (typeof body.customer === 'string') return expectSame('customer', payer, fixture.customer.id);
  const url = `${PAYMENTS}/customers/${encodeURIComponent(payer)}/`;
  const customer = await expectObject(
    run.http,
    { method: 'GET', url },
    [200],
    'reading the payer created with it',
  );
  expectSame(
    'the new payer identifier',
    digitsOf(customer.identifier),
    (body.customer as JsonObject).identifier,
  );
}

async function checkBeneficiary(run: RunContext, intent: JsonObject, body: JsonObject) {
  if (body.pix_key !== undefined) {
    expectSame('pix_key', intent.pix_key, body.pix_key);
    return expectSame('beneficiary (paying to a Pix key)', intent.beneficiary, null);
  }
  if (typeof body.beneficiary === 'string')
    return expectSame('beneficiary', intent.beneficiary, body.beneficiary);
  const id = member(intent, 'beneficiary', 'the created intent');
  const url = `${PAYMENTS}/bank-accounts/${encodeURIComponent(id)}/`;
  const account = await expectObject(
    run.http,
    { method: 'GET', url },
    [200],
    'reading the account created with it',
  );
  const sent = body.beneficiary as JsonObject;
  const details = (record: JsonObject) => [record.institution, record.agency, record.number];
  expectSame('the new beneficiary account (institution, agency, number)', details(account), details(sent));
}

async function runConfig(input: IntentInput, run: RunContext, fixture: PaymentFixture): Promise<void> {
  const body = intentBody(input, fixture, fixture.nextSerial());
  const what = `creating a payment intent (${input.config})`;
  const created = await run.http.request({ method: 'POST', url: `${PAYMENTS}/payment-intents/`, json: body });
  const schema = run.document.operation('createPaymentIntent')?.responses.get('201')?.schema;
  if (created.status !== 201 || schema === undefined) {
    fail(`${what}: wanted 201, got ${created.status} ${created.text.slice(0, 300)}`);
  }
  expectUsable(run.document, created, schema, what);
  const intent = created.json as JsonObject;
  expectSame('amount', intent.amount, body.amount);
  expectSame('scheduled_date', intent.scheduled_date, body.scheduled_date ?? null);
  await checkPayer(run, intent, body, fixture);
  await checkBeneficiary(run, intent, body);
  const read = await getIntent(run.http, member(intent, 'id', what));
  expectSame('the intent read back (id)', read.id, intent.id);
}

export const payIntentConfigs = defineRule<IntentInput, PaymentFixture>({
  id: 'PAY-INTENT-CONFIGS',
  area: 'payments',
  operations: paymentOperations(OPERATIONS),
  runs: 10,
  prepare: (suite) => preparePayments(suite, OPERATIONS),
  arbitrary: (suite) => intentInputArbitrary(suite.config.payments),
  // Each configuration once, whatever fast-check draws.
  examples: (suite) =>
    INTENT_CONFIGS.map((config, index) => ({
      ...exampleParts(suite.config.payments),
      config,
      scheduledIn: index % 2 === 0 ? null : 5,
    })),
  check: runConfig,
});

/** Fixed parts of the examples (the config's test identities first, where it has them). */
function exampleParts(payments: PaymentsConfig): Omit<IntentInput, 'config' | 'scheduledIn'> {
  const identifier = payments.cpfs[0] ?? '52601815906';
  const institution = payments.beneficiaryInstitution;
  return {
    amount: '250.00',
    description: 'Pedido 4471',
    pixKey: { type: 'EMAIL', value: 'vendas@padaria.com.br' },
    newCustomer: { identifier, name: 'Maria Souza', customer_type: 'INDIVIDUAL' },
    newAccount: {
      details: { institution, agency: '0001', number: '4471-5' },
      cnpj: payments.cnpjs[0] ?? '11222333000181',
    },
  };
}
