/**
 * ERR-404: every operation on an item (a path with an id), called with ids that name nothing and an
 * otherwise valid request, gets 404 with the error array. Ids are uuids, or any text where the path
 * parameter allows it (ResourceId: any string is accepted, choice), or, where the parameter is an
 * integer (an institution's id, as the provider's), an integer far beyond any catalogue. Every item
 * operation is tried once (examples). In the sandbox, an operation of payment initiation may refuse with
 * its documented 403 before looking the id up (PAY-SANDBOX): either answer is right there.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { expectStatus } from '../expect-response.js';
import {
  type OperationRequest,
  operationOf,
  operationRequests,
  requestPerOperation,
} from '../operation-requests.js';
import { defineRule, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';

function unknownIds(operation: ApiOperation): Record<string, fc.Arbitrary<string>> {
  const ids: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
    if (isObject(parameter.schema) && parameter.schema.type === 'integer') {
      ids[parameter.name] = fc.integer({ min: 1_000_000_000, max: 2_147_483_647 }).map(String);
      continue;
    }
    const uuidOnly = isObject(parameter.schema) && parameter.schema.format === 'uuid';
    const uuid = fc.uuid({ version: 4 });
    ids[parameter.name] = uuidOnly ? uuid : fc.oneof(uuid, fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/));
  }
  return ids;
}

export const err404 = defineRule<OperationRequest, ApiOperation[]>({
  id: 'ERR-404',
  area: 'cross-cutting',
  quiet: true,
  async prepare(suite) {
    const items = suite.operations.filter((operation) => operation.path.includes('{'));
    return items.length === 0 ? skip('no item operation left by the config') : items;
  },
  arbitrary: (suite, items) =>
    operationRequests(suite, items, (operation) => ({ path: unknownIds(operation) })),
  examples: (suite, items) =>
    requestPerOperation(suite, items, (operation) => ({ path: unknownIds(operation) })),
  async check(call, run) {
    const operation = operationOf(run, call);
    const response = await sendRequest(run.http, operation, call.request);
    const what = `${describeOperation(operation)} with unknown ids ${JSON.stringify(call.request.pathParams)}`;
    const refusable = run.unavailable.has(operation.operationId) && operation.responses.has('403');
    expectStatus(response, refusable ? [404, 403] : [404], what);
  },
});
