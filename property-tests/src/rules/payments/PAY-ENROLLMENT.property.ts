/**
 * PAY-ENROLLMENT: POST /payments/br/enrollments/ for an unknown customer is refused (4xx); for a new
 * customer it begins (201, PENDING, a `redirect_url` whose `state` the callback echoes).
 * complete-redirection with the callback's success parameters completes it (SUCCEEDED), with its error
 * parameters fails it (FAILED), as a read shows. The lists filtered by `customer__identifier`, by
 * `customer` with `institution`, and by `status` hold it, and only enrollments that match.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { describeAnswer, expectErrorArray } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { cpfArbitrary } from './brazilian-documents.js';
import { expectObject, listResults, member, PAYMENTS } from './payment-api.js';
import { textArbitrary } from './payment-bodies.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

interface Input {
  customerExists: boolean;
  cpf: string;
  platform: string;
  /** The callback's parameters: success (`code`, `id_token`) or error (`error`, `error_description`). */
  callback: { code: string; id_token: string } | { error: string; error_description: string };
}

const ENROLLMENTS = `${PAYMENTS}/enrollments/`;
const OPERATIONS = [
  'createEnrollment',
  'completeEnrollmentRedirection',
  'getEnrollment',
  'listEnrollments',
  'listCustomers',
];

const callbackArbitrary = fc.oneof(
  fc.record({
    code: fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
    id_token: fc.stringMatching(/^[A-Za-z0-9_-]{4,20}\.[A-Za-z0-9_-]{4,40}\.[A-Za-z0-9_-]{0,20}$/),
  }),
  fc.record({
    error: fc.constantFrom('access_denied', 'invalid_request', 'server_error', 'temporarily_unavailable'),
    error_description: textArbitrary(),
  }),
);

/** A create body for `customer` (set by the caller) at the config's payer institution. */
function enrollmentBody(run: RunContext, input: Input) {
  const institution = run.config.payments.payerInstitution;
  return { institution, platform: input.platform, callback_url: 'https://app.example.com.br/biometria' };
}

/** A new customer with the input's CPF, and an enrollment begun for it (201). */
async function begin(run: RunContext, input: Input): Promise<{ customer: string; enrollment: JsonObject }> {
  const json = { identifier: input.cpf, name: 'Maria Souza', customer_type: 'INDIVIDUAL' };
  const call = { method: 'POST', url: `${PAYMENTS}/customers/`, json };
  const customer = member(
    await expectObject(run.http, call, [201], 'creating the customer'),
    'id',
    'customer',
  );
  const body = { ...enrollmentBody(run, input), customer };
  const begun = { method: 'POST', url: ENROLLMENTS, json: body };
  return { customer, enrollment: await expectObject(run.http, begun, [201], 'beginning an enrollment') };
}

/** The list filtered by `query` holds the enrollment, and every record passes `matches`. */
async function expectListed(
  run: RunContext,
  id: string,
  query: Record<string, string>,
  matches: (record: JsonObject) => boolean,
) {
  const what = `listing enrollments with ${new URLSearchParams(query).toString()}`;
  const results = await listResults(run.http, ENROLLMENTS, what, query);
  if (!results.some((record) => record.enrollment_id === id))
    fail(`${what}: the enrollment ${id} is missing`);
  const stray = results.find((record) => !matches(record));
  if (stray) fail(`${what}: ${JSON.stringify(stray).slice(0, 300)} does not match the filter`);
}

/** PAY-ENROLLMENT: an unknown customer cannot enroll (the document: 404). */
async function unknownCustomer(input: Input, run: RunContext): Promise<void> {
  const what = 'enrolling for an unknown customer';
  const json = { ...enrollmentBody(run, input), customer: '00000000-0000-4000-8000-000000000001' };
  const answer = await run.http.request({ method: 'POST', url: ENROLLMENTS, json });
  if (answer.status < 400 || answer.status >= 500)
    fail(`${what}: wanted a 4xx, got ${describeAnswer(answer)}`);
  expectErrorArray(run.document, answer, what);
}

/** Posts the callback's parameters with the `state` of `redirect_url`; the status wanted then. */
async function complete(run: RunContext, input: Input, enrollment: JsonObject, id: string): Promise<string> {
  const redirect = member(enrollment, 'redirect_url', 'the enrollment');
  const state = new URL(redirect).searchParams.get('state');
  if (state === null) fail(`the enrollment's redirect_url carries no state: ${redirect}`);
  const json = { enrollment_id: id, state, ...input.callback };
  const call = { method: 'POST', url: `${ENROLLMENTS}complete-redirection/`, json };
  await expectObject(run.http, call, [200], 'completing the redirection');
  const [wanted, outcome] = 'code' in input.callback ? ['SUCCEEDED', 'success'] : ['FAILED', 'error'];
  const read = await expectObject(
    run.http,
    { method: 'GET', url: `${ENROLLMENTS}${id}/` },
    [200],
    'reading it',
  );
  if (read.status !== wanted) {
    fail(
      `after the callback's ${outcome} parameters the enrollment is ${String(read.status)}, not ${wanted}`,
    );
  }
  return wanted;
}

/** The three filters of the rule each hold the enrollment and only matching ones. */
async function expectFilters(
  run: RunContext,
  input: Input,
  ids: { customer: string; enrollment: string },
  status: string,
) {
  const query = { identifier: input.cpf };
  const same = await listResults(
    run.http,
    `${PAYMENTS}/customers/`,
    'listing customers by identifier',
    query,
  );
  const customers = new Set(same.map((record) => record.id));
  const { customer, enrollment } = ids;
  await expectListed(run, enrollment, { customer__identifier: input.cpf }, (r) =>
    customers.has(r.customer as string),
  );
  const institution = run.config.payments.payerInstitution;
  const byCustomer = { customer, institution };
  await expectListed(
    run,
    enrollment,
    byCustomer,
    (r) => r.customer === customer && r.institution === institution,
  );
  await expectListed(run, enrollment, { status }, (record) => record.status === status);
}

async function runEnrollment(input: Input, run: RunContext): Promise<void> {
  if (!input.customerExists) return unknownCustomer(input, run);
  const { customer, enrollment } = await begin(run, input);
  const id = member(enrollment, 'enrollment_id', 'the enrollment');
  const status = await complete(run, input, enrollment, id);
  await expectFilters(run, input, { customer, enrollment: id }, status);
}

export const payEnrollment = defineRule<Input, PaymentFixture>({
  id: 'PAY-ENROLLMENT',
  area: 'payments',
  operations: paymentOperations(OPERATIONS),
  runs: 8,
  prepare: (suite) => preparePayments(suite, OPERATIONS),
  arbitrary: (suite) =>
    fc.record({
      customerExists: fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      cpf: cpfArbitrary(suite.config.payments),
      platform: fc.constantFrom('ANDROID', 'IOS', 'WEB'),
      callback: callbackArbitrary,
    }),
  check: (input, run) => runEnrollment(input, run),
});
