/**
 * PAY-VERSION-HEADER: customers and bank accounts (INDIVIDUAL and BUSINESS) created with
 * `X-Service-API-Resource-Version: Payments-BR.V2` and a V2 body answer in the V2 format, without the
 * header and with a V1 body in the V1 format (the document's `CustomerV1`/`CustomerV2`,
 * `BankAccountV1`/`BankAccountV2`); reading the same record back (detail and list) answers in the
 * format the read's header selects, whichever version created it.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { PaymentsConfig } from '../../target/target-config.js';
import { expectUsable, matchesOpenly } from '../expect-response.js';
import { defineRule, fail, type RunContext, type SuiteContext } from '../rule.js';
import {
  accountNumberArbitrary,
  agencyArbitrary,
  cnpjArbitrary,
  uniqueAccountNumber,
} from './brazilian-documents.js';
import { expectAnswer, member, PAYMENTS, V2_HEADERS } from './payment-api.js';
import {
  type AccountDetails,
  businessAccountBody,
  customerBodyArbitrary,
  digitsOf,
  individualAccountBody,
  type Version,
} from './payment-bodies.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

type Resource = 'customer' | 'business-account' | 'individual-account';

interface Input {
  resource: Resource;
  created: Version;
  read: Version;
  customer: { V1: JsonObject; V2: JsonObject };
  /** Agency and number; the institution follows the account type (config). */
  account: Omit<AccountDetails, 'institution'>;
  cnpj: string;
}

const OPERATIONS = ['getCustomer', 'listCustomers', 'getBankAccount', 'listBankAccounts'];
const headersOf = (version: Version) => (version === 'V2' ? V2_HEADERS : {});
const customerBodies = (suite: SuiteContext) =>
  fc.record({ V1: customerBodyArbitrary(suite, 'V1'), V2: customerBodyArbitrary(suite, 'V2') });

/** Where the resource lives, its schema name prefix and the create body in `version`. */
function target(input: Input, fixture: PaymentFixture, payments: PaymentsConfig, version: Version) {
  if (input.resource === 'customer') {
    return { url: `${PAYMENTS}/customers/`, schema: 'Customer', body: input.customer[version] };
  }
  const business = input.resource === 'business-account';
  const account = {
    institution: business ? payments.beneficiaryInstitution : payments.payerInstitution,
    agency: input.account.agency,
    number: uniqueAccountNumber(fixture.nextSerial(), input.account.number),
  };
  const body = business
    ? businessAccountBody(account, input.cnpj, version)
    : individualAccountBody(account, fixture.customer, version);
  return { url: `${PAYMENTS}/bank-accounts/`, schema: 'BankAccount', body };
}

/** The document number a record or body names (customer `identifier`, account `holder.identifier`). */
const documentOf = (record: JsonObject) =>
  digitsOf(record.identifier ?? (record.holder as JsonObject | undefined)?.identifier);

async function readBack(run: RunContext, url: string, id: string, schema: string, input: Input) {
  const what = `reading it ${input.read === 'V2' ? 'with' : 'without'} the header`;
  const detail = await expectAnswer(
    run.http,
    { method: 'GET', url: `${url}${id}/`, headers: headersOf(input.read) },
    [200],
    what,
  );
  expectUsable(run.document, detail, run.document.schema(`${schema}${input.read}`), `${what} (detail)`, {
    shapeFails: true,
  });
  const list = { method: 'GET', url, query: { id }, headers: headersOf(input.read) };
  const page = await expectAnswer(run.http, list, [200], `${what} (list)`);
  const results = (page.json as { results?: unknown[] } | undefined)?.results ?? [];
  const format = run.document.schema(`${schema}${input.read}`);
  const schemaOf = (record: unknown) => matchesOpenly(run.document, format, record);
  if (!results.some((record) => (record as JsonObject | null)?.id === id))
    fail(`${what} (list ?id=): ${id} is missing`);
  if (!results.every((record) => schemaOf(record)))
    fail(`${what} (list): a record is not in the ${input.read} format`);
  return detail.json as JsonObject;
}

/** Each resource once, created in one version and read in the other. */
function exampleInputs(suite: SuiteContext): Input[] {
  const [sample] = fc.sample(
    fc.record({
      customer: customerBodies(suite),
      cnpj: cnpjArbitrary(suite.config.payments),
    }),
    { numRuns: 1, seed: 1 },
  );
  const account = { agency: '0001', number: '4582-1' };
  return (['customer', 'business-account', 'individual-account'] as const).map((resource, index) => ({
    resource,
    created: index % 2 === 0 ? 'V2' : 'V1',
    read: index % 2 === 0 ? 'V1' : 'V2',
    ...sample!,
    account,
  }));
}

export const payVersionHeader = defineRule<Input, PaymentFixture>({
  id: 'PAY-VERSION-HEADER',
  area: 'payments',
  operations: paymentOperations(OPERATIONS),
  runs: 10,
  prepare: (suite) => preparePayments(suite, OPERATIONS),
  arbitrary: (suite) =>
    fc.record({
      resource: fc.constantFrom<Resource>('customer', 'business-account', 'individual-account'),
      created: fc.constantFrom<Version>('V1', 'V2'),
      read: fc.constantFrom<Version>('V1', 'V2'),
      customer: customerBodies(suite),
      account: fc.record({ agency: agencyArbitrary(), number: accountNumberArbitrary() }),
      cnpj: cnpjArbitrary(suite.config.payments),
    }),
  examples: exampleInputs,
  async check(input, run, fixture) {
    const { url, schema, body } = target(input, fixture, run.config.payments, input.created);
    const what = `creating a ${input.resource} ${input.created === 'V2' ? 'with' : 'without'} the header`;
    const created = await expectAnswer(
      run.http,
      { method: 'POST', url, json: body, headers: headersOf(input.created) },
      [201],
      what,
    );
    expectUsable(run.document, created, run.document.schema(`${schema}${input.created}`), what, {
      shapeFails: true,
    });
    const id = member(created.json as JsonObject, 'id', what);
    const read = await readBack(run, url, id, schema, input);
    if (documentOf(read) !== documentOf(body)) {
      fail(
        `read back in ${input.read}, the document number is ${String(documentOf(read))}, not ${String(documentOf(body))}`,
      );
    }
  },
});
