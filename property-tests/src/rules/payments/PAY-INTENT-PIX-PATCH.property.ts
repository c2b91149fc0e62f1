/**
 * PAY-INTENT-PIX-PATCH: a payment intent created with a Pix key (payer registered or created in the
 * request, any key type, immediate or scheduled) waits for its completion (`REQUIRES_ACTION` in the
 * document's state machine); PATCH /payments/br/payment-intents/{id}/ completes it (200, a body valid
 * against the document, no longer REQUIRES_ACTION, as a read shows); a second PATCH is refused (4xx, the
 * document's choice: only a REQUIRES_ACTION intent can be completed).
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import { describeAnswer, expectErrorArray, expectUsable } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import {
  COMPLETE_BODY,
  createIntent,
  getIntent,
  type IntentInput,
  intentBody,
  intentInputArbitrary,
  intentUrl,
} from './intent-steps.js';
import { member } from './payment-api.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

const OPERATIONS = ['createPaymentIntent', 'completePaymentIntent', 'getPaymentIntent'];
/** The document's status of an intent waiting for the PATCH (PaymentIntentStatus). */
const AWAITING = 'REQUIRES_ACTION';

async function runPatch(input: IntentInput, run: RunContext, fixture: PaymentFixture): Promise<void> {
  const { http } = run;
  const created = await createIntent(
    http,
    intentBody(input, fixture, fixture.nextSerial()),
    `creating a ${input.config} intent`,
  );
  const id = member(created, 'id', 'the created intent');
  if (created.status !== AWAITING)
    fail(`created with a Pix key, the intent is ${String(created.status)}, not ${AWAITING}`);
  const patch = { method: 'PATCH', url: intentUrl(id), json: COMPLETE_BODY };
  const completed = await http.request(patch);
  const what = 'completing it with PATCH';
  const schema = run.document.operation('completePaymentIntent')?.responses.get('200')?.schema;
  if (completed.status !== 200 || schema === undefined)
    fail(`${what}: wanted 200, got ${describeAnswer(completed)}`);
  expectUsable(run.document, completed, schema, what);
  const status = (completed.json as JsonObject).status;
  if (status === AWAITING) fail(`${what}: answered 200 but the intent is still ${AWAITING}`);
  const read = await getIntent(http, id);
  if (read.status !== status)
    fail(`${what}: answered ${String(status)}, but reading it shows ${String(read.status)}`);
  const again = await http.request(patch);
  if (again.status < 400 || again.status >= 500)
    fail(`completing it a second time: wanted a 4xx, got ${describeAnswer(again)}`);
  expectErrorArray(run.document, again, 'completing it a second time');
}

export const payIntentPixPatch = defineRule<IntentInput, PaymentFixture>({
  id: 'PAY-INTENT-PIX-PATCH',
  area: 'payments',
  operations: paymentOperations(OPERATIONS),
  runs: 8,
  prepare: (suite) => preparePayments(suite, OPERATIONS),
  arbitrary: (suite) =>
    intentInputArbitrary(suite.config.payments, ['pix-key+registered-customer', 'pix-key+new-customer']),
  check: runPatch,
});
