/**
 * TOKEN-WIDGET: POST /api/token/ (no body, or a subset of its default `scopes`, the fixture link and an
 * `external_id`) and POST /payments/br/token/ (an existing customer and a subset of its default
 * `scopes`) answer 201 with a body valid against the document's WidgetToken (`access`, `refresh`,
 * `expires_in`). The payments half is left out in the sandbox (PAY-SANDBOX) or without a customer.
 */
import fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { expectStatus } from '../expect-response.js';
import { defineRule, fail, isSkip, type SuiteContext, skip } from '../rule.js';
import { requiredHeaders, seedCollection } from '../seed-collection.js';
import { expectDocumented } from './link-requests.js';

const CUSTOMERS = '/payments/br/customers/';
/** TOKEN-WIDGET's "short-lived", read generously: an hour at most (choice). */
const SHORT_LIVED_SECONDS = 3600;

interface Input {
  operationId: string;
  /** The body; undefined sends none. */
  body: JsonObject | undefined;
}

interface Fixture {
  link: string | undefined;
  customers: string[];
  operations: ApiOperation[];
}

/** The `default` of the body's `scopes` (comma-separated), split. */
function defaultScopes(suite: SuiteContext, operation: ApiOperation): string[] {
  const schema = suite.document.resolve(operation.body?.schema);
  const scopes =
    isObject(schema) && isObject(schema.properties)
      ? suite.document.resolve(schema.properties.scopes)
      : undefined;
  return isObject(scopes) && typeof scopes.default === 'string' ? scopes.default.split(',') : [];
}

const scopesArbitrary = (scopes: string[]) =>
  fc.option(
    fc.subarray(scopes, { minLength: 1 }).map((chosen) => chosen.join(',')),
    { nil: undefined },
  );

/** Drops the members left undefined. */
const defined = (members: Record<string, JsonValue | undefined>): JsonObject =>
  Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined)) as JsonObject;

function bodies(
  suite: SuiteContext,
  operation: ApiOperation,
  fixture: Fixture,
): fc.Arbitrary<JsonObject | undefined> {
  const scopes = scopesArbitrary(defaultScopes(suite, operation));
  if (operation.operationId === 'createPaymentsWidgetToken') {
    return fc.record({ customer: fc.constantFrom(...fixture.customers), scopes }).map(defined);
  }
  const link = fixture.link
    ? fc.option(fc.constant(fixture.link), { nil: undefined })
    : fc.constant(undefined);
  const externalId = fc.option(fc.stringMatching(/^[a-z0-9-]{1,20}$/), { nil: undefined });
  const body = fc.record({ scopes, link, external_id: externalId }).map(defined);
  return fc.option(body, { nil: undefined });
}

/** Ids of the tenant's payment customers, creating one from the document's example when there is none. */
async function customerIds(suite: SuiteContext): Promise<string[]> {
  const list = suite.operations.find((op) => op.method === 'GET' && op.path === CUSTOMERS);
  if (!list) return [];
  const read = async () => {
    const records = await suite.fixtures.listAll(CUSTOMERS, {}, requiredHeaders(suite, list));
    return isSkip(records)
      ? []
      : records.flatMap((record) => (typeof record.id === 'string' ? [record.id] : []));
  };
  const found = await read();
  if (found.length > 0) return found.slice(0, 5);
  await seedCollection(suite, CUSTOMERS, CUSTOMERS, undefined);
  return (await read()).slice(0, 5);
}

/** The payments token and its customers, or none (with the reason as a note). */
async function paymentsPart(suite: SuiteContext, note: (text: string) => void) {
  const operation = suite.operations.find((op) => op.operationId === 'createPaymentsWidgetToken');
  if (!operation) return { operation: undefined, customers: [] };
  if (suite.environment === 'sandbox') {
    note('POST /payments/br/token/ left out: payments are not available in the sandbox (PAY-SANDBOX)');
    return { operation: undefined, customers: [] };
  }
  const customers = await customerIds(suite);
  if (customers.length > 0) return { operation, customers };
  note(`POST /payments/br/token/ left out: no customer at ${CUSTOMERS} and none could be created`);
  return { operation: undefined, customers };
}

async function prepareOperations(suite: SuiteContext, note: (text: string) => void): Promise<Fixture> {
  const data = suite.operations.find((op) => op.operationId === 'createWidgetToken');
  const payments = await paymentsPart(suite, note);
  const link = data ? await suite.fixtures.link('link') : undefined;
  if (isSkip(link)) note(`no fixture link (${link.skip}): POST /api/token/ is sent without \`link\``);
  const operations = [data, payments.operation].filter((op): op is ApiOperation => op !== undefined);
  return { link: typeof link === 'string' ? link : undefined, customers: payments.customers, operations };
}

export const tokenWidget = defineRule<Input, Fixture>({
  id: 'TOKEN-WIDGET',
  area: 'links',
  over: (operation) => ['createWidgetToken', 'createPaymentsWidgetToken'].includes(operation.operationId),
  runs: 10,
  async prepare(suite, note) {
    const fixture = await prepareOperations(suite, note);
    return fixture.operations.length === 0
      ? skip('neither widget token operation can be called here')
      : fixture;
  },
  arbitrary: (suite, fixture) =>
    fc
      .constantFrom(...fixture.operations)
      .chain((operation) =>
        bodies(suite, operation, fixture).map(
          (body): Input => ({ operationId: operation.operationId, body }),
        ),
      ),
  examples: (_, fixture) =>
    fixture.operations.map((operation) => ({
      operationId: operation.operationId,
      body:
        operation.operationId === 'createPaymentsWidgetToken'
          ? { customer: fixture.customers[0]! }
          : undefined,
    })),
  async check(input, run) {
    const operation = run.document.operation(input.operationId)!;
    const answer = await run.http.request({
      method: 'POST',
      url: operation.path,
      headers: requiredHeaders(run, operation),
      ...(input.body === undefined ? {} : { json: input.body }),
    });
    const what = `POST ${operation.path} with ${input.body === undefined ? 'no body' : JSON.stringify(input.body)}`;
    expectStatus(answer, [201], what);
    expectDocumented(run, answer, input.operationId, what);
    // Short-lived: a widget session is minutes, not a day (the simulator's choice is 600 s).
    const expiresIn = (answer.json as { expires_in?: unknown }).expires_in;
    if (typeof expiresIn === 'number' && (expiresIn <= 0 || expiresIn > SHORT_LIVED_SECONDS)) {
      fail(`${what}: expires_in ${expiresIn} s is not short-lived (at most ${SHORT_LIVED_SECONDS} s)`);
    }
  },
});
