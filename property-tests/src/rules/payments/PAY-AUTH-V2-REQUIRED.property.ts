/**
 * PAY-AUTH-V2-REQUIRED: every operation under /payments/br/payment-authorizations/, sent as a valid
 * request (existing authorization and charge, a valid create body) but without
 * `X-Service-API-Resource-Version: Payments-BR.V2` (absent, or another value), gets 400 with the
 * error array. Without the control API no charge can be confirmed, so charge ids are unknown ones.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { fillPath } from '../../arbitraries/request-arbitrary.js';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, isSkip, type SuiteContext, skip } from '../rule.js';
import { authorizationBody, authorizationCharges, createAuthorization } from './authorization-steps.js';
import { member, userAction, V2, VERSION_HEADER } from './payment-api.js';
import { oneChargeSchedule } from './payment-bodies.js';
import { addDays } from './payment-dates.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

interface Input {
  operationId: string;
  /** The header's value; null: no header at all. */
  header: string | null;
}

interface Fixture {
  operations: ApiOperation[];
  pathParams: Record<string, string>;
  createBody: JsonObject;
}

const PREFIX = '/payments/br/payment-authorizations/';

/** An authorization (confirmed, with its charge, when the control API is there) to name in paths. */
async function existingIds(suite: SuiteContext, fixture: PaymentFixture, createBody: JsonObject) {
  const schedule = createBody.schedule as JsonObject;
  const authorization = await createAuthorization(suite.http, fixture, suite.config.payments, schedule);
  let charge = '00000000-0000-4000-8000-000000000000';
  if (suite.capabilities.controlApi) {
    await userAction(suite.http, 'payment-authorizations', authorization, 'confirm');
    const [first] = await authorizationCharges(suite.http, authorization);
    if (first) charge = member(first, 'charge_id', 'the set-up charge');
  }
  return { payment_authorization_id: authorization, charge_id: charge };
}

async function prepare(
  suite: SuiteContext,
  note: (text: string) => void,
): Promise<Fixture | ReturnType<typeof skip>> {
  const operations = suite.operations.filter((operation) => operation.path.startsWith(PREFIX));
  if (operations.length === 0) return skip('no payment-authorization operation left by the config');
  const fixture = await preparePayments(suite, [
    'createPaymentAuthorization',
    'listPaymentAuthorizationCharges',
  ]);
  if (isSkip(fixture)) return fixture;
  const schedule = oneChargeSchedule(addDays(fixture.today, 7), '89.90', false);
  const createBody = authorizationBody(fixture, suite.config.payments, schedule);
  const pathParams = await existingIds(suite, fixture, createBody);
  if (!suite.capabilities.controlApi)
    note('no control API: charge operations are sent with an unknown charge id');
  return { operations, pathParams, createBody };
}

/** Values that are not `Payments-BR.V2`. */
const wrongValues = fc.oneof(
  fc.constantFrom('Payments-BR.V1', 'Payments-BR.V3', 'Payments-BR'),
  fc.stringMatching(/^[A-Za-z0-9.-]{1,16}$/).filter((value) => value.toLowerCase() !== V2.toLowerCase()),
);

export const payAuthV2Required = defineRule<Input, Fixture>({
  id: 'PAY-AUTH-V2-REQUIRED',
  area: 'payments',
  operations: paymentOperations(['createPaymentAuthorization', 'listPaymentAuthorizationCharges']),
  prepare,
  arbitrary: (_suite, fixture) =>
    fc.record({
      operationId: fc.constantFrom(...fixture.operations.map((operation) => operation.operationId)),
      header: fc.option(wrongValues, { nil: null, freq: 2 }),
    }),
  // Every operation once without the header.
  examples: (_suite, fixture) => fixture.operations.map(({ operationId }) => ({ operationId, header: null })),
  async check(input, run, fixture) {
    const operation = fixture.operations.find((candidate) => candidate.operationId === input.operationId)!;
    const headers: Record<string, string> = input.header === null ? {} : { [VERSION_HEADER]: input.header };
    const answer = await run.http.request({
      method: operation.method,
      url: fillPath(operation.path, fixture.pathParams),
      headers,
      ...(operation.body ? { json: fixture.createBody } : {}),
    });
    const sent = input.header === null ? 'without the header' : `with ${VERSION_HEADER}: ${input.header}`;
    const what = `${operation.operationId} (${operation.method} ${operation.path}) ${sent}`;
    expectStatus(answer, [400], what);
    expectErrorArray(run.document, answer, what);
  },
});
