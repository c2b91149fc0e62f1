/** The requests ERR-BODY sends: one arbitrary per way of provoking an error, all from the document. */
import fc from 'fast-check';
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { type OperationRequest, operationRequests, requestPerOperation } from '../operation-requests.js';
import type { SuiteContext } from '../rule.js';

export type ErrorCase =
  | { kind: 'refused-method' | 'unknown-path'; method: string; url: string }
  | {
      kind: 'valid' | 'no-credentials' | 'unknown-id' | 'bad-paging' | 'malformed-json';
      call: OperationRequest;
    }
  | { kind: 'wrong-type'; call: OperationRequest; member: string; value: JsonValue }
  /** The control API's injected 400 (the Too Many Sessions error), on an operation that documents 400. */
  | { kind: 'injected-400'; call: OperationRequest };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** One value of each JSON type; a member gets one its schema refuses. */
const WRONG_VALUES: JsonValue[] = [12345, 'not-of-this-type', true, { unexpected: 1 }, ['x'], null];
const BAD_PAGING = ['0', '-3', 'abc', '1.5', ''];

/** Top-level body members and the values their schema refuses. */
function wrongValues(suite: SuiteContext, operation: ApiOperation): [string, JsonValue[]][] {
  const schema = operation.body ? suite.document.resolve(operation.body.schema) : undefined;
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties).map(([member, memberSchema]): [string, JsonValue[]] => {
    const validate = suite.document.ajv.compile(memberSchema);
    return [member, WRONG_VALUES.filter((value) => !validate(value))];
  });
}

function wrongTypes(suite: SuiteContext): fc.Arbitrary<ErrorCase> | undefined {
  const cases = suite.operations
    .filter((operation) => !operation.path.includes('{'))
    .flatMap((operation) =>
      wrongValues(suite, operation).map(([member, values]) => ({ operation, member, values })),
    )
    .filter(({ values }) => values.length > 0);
  if (cases.length === 0) return undefined;
  return fc.constantFrom(...cases).chain(({ operation, member, values }) =>
    fc
      .record({ call: operationRequests(suite, [operation]), value: fc.constantFrom(...values) })
      .filter(({ call }) => isObject(call.request.body))
      .map(({ call, value }): ErrorCase => ({ kind: 'wrong-type', call, member, value })),
  );
}

function refusedMethods(suite: SuiteContext): fc.Arbitrary<ErrorCase> | undefined {
  const pairs = [...new Set(suite.operations.map((operation) => operation.path))].flatMap((path) =>
    METHODS.filter((method) => !suite.document.methodsOf(path).includes(method)).map((method) => ({
      path,
      method,
    })),
  );
  if (pairs.length === 0) return undefined;
  return fc.record({ pair: fc.constantFrom(...pairs), id: fc.uuid({ version: 4 }) }).map(
    ({ pair, id }): ErrorCase => ({
      kind: 'refused-method',
      method: pair.method,
      url: pair.path.replace(/\{[^}]+\}/g, id),
    }),
  );
}

function calls(
  suite: SuiteContext,
  kind: 'valid' | 'no-credentials' | 'unknown-id' | 'malformed-json',
  ops: ApiOperation[],
) {
  return ops.length === 0
    ? undefined
    : operationRequests(suite, ops).map((call): ErrorCase => ({ kind, call }));
}

function badPaging(suite: SuiteContext): fc.Arbitrary<ErrorCase> | undefined {
  const lists = suite.operations.filter((operation) =>
    operation.parameters.some((p) => p.name === 'page_size'),
  );
  if (lists.length === 0) return undefined;
  return fc
    .record({
      call: operationRequests(suite, lists),
      param: fc.constantFrom('page', 'page_size'),
      value: fc.constantFrom(...BAD_PAGING),
    })
    .map(
      ({ call, param, value }): ErrorCase => ({
        kind: 'bad-paging',
        call: { ...call, request: { ...call.request, query: { ...call.request.query, [param]: value } } },
      }),
    );
}

/** Every kind of error-provoking request the document lets the suite build. */
export function errorCases(suite: SuiteContext): fc.Arbitrary<ErrorCase> {
  const ops = suite.operations;
  const arbitraries = [
    calls(suite, 'valid', ops),
    calls(suite, 'no-credentials', ops),
    calls(
      suite,
      'unknown-id',
      ops.filter((operation) => operation.path.includes('{')),
    ),
    calls(
      suite,
      'malformed-json',
      ops.filter((operation) => operation.body && !operation.path.includes('{')),
    ),
    wrongTypes(suite),
    refusedMethods(suite),
    badPaging(suite),
    fc.stringMatching(/^[a-z][a-z0-9-]{2,12}$/).map(
      (segment): ErrorCase => ({
        kind: 'unknown-path',
        method: 'GET',
        url: `/api/ofkit-unknown-${segment}/`,
      }),
    ),
  ].filter((arbitrary): arbitrary is fc.Arbitrary<ErrorCase> => arbitrary !== undefined);
  return fc.oneof(...arbitraries);
}

/**
 * With the control API: every operation that documents a 400 once with the injected 400 (the Too Many
 * Sessions error, CLIENT-TOO-MANY-SESSIONS), the one 400 the document gives some operations (a detail
 * read has no body or filter to get wrong), so each shows its documented 400.
 */
export function injected400Cases(suite: SuiteContext): ErrorCase[] {
  if (!suite.capabilities.controlApi) return [];
  const documenting = suite.operations.filter((operation) => operation.responses.has('400'));
  return requestPerOperation(suite, documenting).map((call): ErrorCase => ({ kind: 'injected-400', call }));
}
