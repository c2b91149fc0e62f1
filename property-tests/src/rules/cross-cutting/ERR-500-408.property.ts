/**
 * ERR-500-408: a 500 or a 408, injected through the control API (`POST /_ofkit/faults/`, admin.yaml)
 * on any operation, reaches the client with that status and the error array, valid against the
 * operation's documented response for that status. Every operation is tried with each of the two it
 * documents (examples), so each shows them.
 */
import fc from 'fast-check';
import { describeAnswer, expectErrorArray, expectStatus, expectValid } from '../expect-response.js';
import {
  type OperationRequest,
  operationOf,
  operationRequests,
  requestPerOperation,
} from '../operation-requests.js';
import { defineRule, fail, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';

const FAULTS = '/_ofkit/faults/';

interface Input {
  status: 500 | 408;
  call: OperationRequest;
}

export const err500408 = defineRule<Input>({
  id: 'ERR-500-408',
  area: 'cross-cutting',
  tenantWide: 'switches',
  needs: ['control-api'],
  allows5xx: true,
  runs: 10,
  prepare: async (suite) =>
    suite.operations.length === 0 ? skip('no operation left by the config') : undefined,
  arbitrary: (suite) =>
    fc.record({
      status: fc.constantFrom<500 | 408>(500, 408),
      call: operationRequests(suite, suite.operations),
    }),
  examples: (suite) =>
    requestPerOperation(suite, suite.operations).flatMap((call) => {
      const operation = operationOf(suite, call);
      const statuses = ([500, 408] as const).filter((status) => operation.responses.has(String(status)));
      return statuses.map((status): Input => ({ status, call }));
    }),
  async check({ status, call }, run) {
    const operation = operationOf(run, call);
    const json = { operation_id: operation.operationId, status, count: 1 };
    const injected = await run.http.request({ method: 'POST', url: FAULTS, json });
    if (injected.status !== 201)
      fail(`POST ${FAULTS} ${JSON.stringify(json)} answered ${describeAnswer(injected)}`);
    try {
      const response = await sendRequest(run.http, operation, call.request);
      const what = `${describeOperation(operation)} with an injected ${status}`;
      expectStatus(response, [status], what);
      expectErrorArray(run.document, response, what);
      const declared = operation.responses.get(String(status))?.schema;
      if (declared !== undefined) expectValid(run.document, response, declared, what);
    } finally {
      await run.http.request({ method: 'DELETE', url: FAULTS });
    }
  },
});
