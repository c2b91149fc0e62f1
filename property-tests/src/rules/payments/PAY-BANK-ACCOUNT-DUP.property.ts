/**
 * PAY-BANK-ACCOUNT-DUP: with the institution, agency and number of an active bank account, a second
 * registration is rejected (4xx, error array); once the first is deactivated (PATCH `active: false`)
 * the same details register again; PATCH `active: true` reactivates it (here after the second one is
 * deactivated), and the duplicate check applies to it again. Every run uses fresh details and leaves
 * its accounts deactivated.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { cnpjArbitrary, uniqueAccountNumber } from './brazilian-documents.js';
import { expectObject, member, PAYMENTS, V2_HEADERS } from './payment-api.js';
import {
  type AccountDetails,
  accountDetailsArbitrary,
  businessAccountBody,
  individualAccountBody,
  type Version,
} from './payment-bodies.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

interface Input {
  kind: 'BUSINESS' | 'INDIVIDUAL';
  details: AccountDetails;
  cnpj: string;
  /** The request version of the first and of the later registrations (PAY-VERSION-HEADER). */
  versions: [Version, Version];
}

const ACCOUNTS = `${PAYMENTS}/bank-accounts/`;
const OPERATIONS = ['updateBankAccount'];
const headersOf = (version: Version) => (version === 'V2' ? V2_HEADERS : {});

function register(http: HttpSession, input: Input, fixture: PaymentFixture, version: Version) {
  const json =
    input.kind === 'BUSINESS'
      ? businessAccountBody(input.details, input.cnpj, version)
      : individualAccountBody(input.details, fixture.customer, version);
  return http.request({ method: 'POST', url: ACCOUNTS, json, headers: headersOf(version) });
}

async function registered(
  run: RunContext,
  input: Input,
  fixture: PaymentFixture,
  what: string,
): Promise<string> {
  const answer = await register(run.http, input, fixture, input.versions[1]);
  if (answer.status !== 201) fail(`${what}: wanted 201, got ${describeAnswer(answer)}`);
  return member(answer.json as JsonObject, 'id', what);
}

async function rejected(run: RunContext, input: Input, fixture: PaymentFixture, what: string): Promise<void> {
  const answer = await register(run.http, input, fixture, input.versions[1]);
  if (answer.status < 400 || answer.status >= 500) {
    fail(`${what}: a duplicate of an active account must be rejected, got ${describeAnswer(answer)}`);
  }
  expectErrorArray(run.document, answer, what);
}

/** PATCH `{active}`: 200 and the answer says so. */
async function setActive(http: HttpSession, id: string, active: boolean, what: string): Promise<void> {
  const call = { method: 'PATCH', url: `${ACCOUNTS}${id}/`, json: { active } };
  const answer = await expectObject(http, call, [200], what);
  if (answer.active !== active) fail(`${what}: answered 200 with active ${String(answer.active)}`);
}

async function runDuplicates(input: Input, run: RunContext, fixture: PaymentFixture): Promise<void> {
  const { http } = run;
  const created = await register(http, input, fixture, input.versions[0]);
  if (created.status !== 201) fail(`registering fresh details: wanted 201, got ${describeAnswer(created)}`);
  const a = member(created.json as JsonObject, 'id', 'the first account');
  await rejected(run, input, fixture, 'registering the same details while the first is active');
  await setActive(http, a, false, 'deactivating the first account');
  const b = await registered(
    run,
    input,
    fixture,
    'registering the same details once the first is deactivated',
  );
  await setActive(http, b, false, 'deactivating the second account');
  await setActive(http, a, true, 'reactivating the first account');
  await rejected(run, input, fixture, 'registering the same details once the first is active again');
  await setActive(http, a, false, 'leaving the first account deactivated');
}

export const payBankAccountDup = defineRule<Input, PaymentFixture>({
  id: 'PAY-BANK-ACCOUNT-DUP',
  area: 'payments',
  operations: paymentOperations(OPERATIONS),
  runs: 6,
  prepare: (suite) => preparePayments(suite, OPERATIONS),
  arbitrary: (suite, fixture) =>
    fc
      .record({
        kind: fc.constantFrom<Input['kind']>('BUSINESS', 'INDIVIDUAL'),
        details: accountDetailsArbitrary(suite.config.payments.beneficiaryInstitution),
        cnpj: cnpjArbitrary(suite.config.payments),
        versions: fc.tuple(fc.constantFrom<Version>('V1', 'V2'), fc.constantFrom<Version>('V1', 'V2')),
      })
      .map((input) => {
        const { payerInstitution, beneficiaryInstitution } = suite.config.payments;
        const institution = input.kind === 'BUSINESS' ? beneficiaryInstitution : payerInstitution;
        const number = uniqueAccountNumber(fixture.nextSerial(), input.details.number);
        return { ...input, details: { ...input.details, institution, number } };
      }),
  check: runDuplicates,
});
