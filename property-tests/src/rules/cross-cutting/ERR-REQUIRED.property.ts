/**
 * ERR-REQUIRED: a valid body with one required member left out gets 400 with an error whose `code` is
 * `required` and whose `field` names the member. Every (operation, required member) pair is tried once
 * (examples), then random ones. Bodies with a top-level `oneOf` are left out (which member is required
 * depends on the branch), and so are item operations whose ids the suite cannot point at a live record.
 */
import fc from 'fast-check';
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { type RequestInput, requestArbitrary } from '../../arbitraries/request-arbitrary.js';
import { expectFieldError, expectStatus } from '../expect-response.js';
import { defineRule, isSkip, type SuiteContext, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';

interface Input {
  operationId: string;
  request: RequestInput;
  drop: string;
}

interface Fixture {
  cases: { operation: ApiOperation; required: string[] }[];
  link: string | undefined;
}

function requiredMembers(suite: SuiteContext, operation: ApiOperation): string[] {
  const schema = operation.body ? suite.document.resolve(operation.body.schema) : undefined;
  if (!isObject(schema) || schema.oneOf !== undefined || !Array.isArray(schema.required)) return [];
  return schema.required.map(String);
}

const onLink = (operation: ApiOperation) => /^\/api\/links\/\{id\}\//.test(operation.path);

function requestsOf(suite: SuiteContext, operation: ApiOperation, link: string | undefined) {
  return requestArbitrary(
    suite.schemas,
    operation,
    link && onLink(operation) ? { path: { id: fc.constant(link) } } : {},
  );
}

export const errRequired = defineRule<Input, Fixture>({
  id: 'ERR-REQUIRED',
  area: 'cross-cutting',
  async prepare(suite, note) {
    const found = await suite.fixtures.link('link');
    const link = isSkip(found) ? undefined : found;
    const cases = suite.operations
      .map((operation) => ({ operation, required: requiredMembers(suite, operation) }))
      .filter(({ operation, required }) => {
        if (required.length === 0) return false;
        const reachable = !operation.path.includes('{') || (onLink(operation) && link !== undefined);
        if (!reachable) note(`${operation.operationId} left out: needs an existing record in its path`);
        return reachable;
      });
    return cases.length === 0 ? skip('no operation with required body members left') : { cases, link };
  },
  arbitrary: (suite, { cases, link }) =>
    fc
      .constantFrom(...cases)
      .chain(({ operation, required }) =>
        fc
          .record({ request: requestsOf(suite, operation, link), drop: fc.constantFrom(...required) })
          .map(({ request, drop }) => ({ operationId: operation.operationId, request, drop })),
      ),
  examples: (suite, { cases, link }) =>
    cases.flatMap(({ operation, required }) => {
      const [request] = fc.sample(requestsOf(suite, operation, link), { numRuns: 1, seed: 0 });
      return required.map((drop) => ({ operationId: operation.operationId, request: request!, drop }));
    }),
  async check({ operationId, request, drop }, run) {
    const operation = run.document.operation(operationId)!;
    const members = isObject(request.body) ? Object.entries(request.body) : [];
    const body = Object.fromEntries(members.filter(([name]) => name !== drop));
    const response = await sendRequest(run.http, operation, { ...request, body: body as JsonValue });
    const what = `${describeOperation(operation)} without \`${drop}\``;
    expectStatus(response, [400], what);
    expectFieldError(response, [drop], 'required', what);
  },
});
