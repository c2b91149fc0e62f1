/** AUTH-ENV-KEYS: a key of the other environment gets 401 with the error array, on any operation. */
import { expectStatus } from '../expect-response.js';
import { type OperationRequest, operationOf, operationRequests } from '../operation-requests.js';
import { defineRule, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';

export const authEnvKeys = defineRule<OperationRequest>({
  id: 'AUTH-ENV-KEYS',
  area: 'cross-cutting',
  quiet: true,
  needs: ['other-environment-key'],
  prepare: async (suite) =>
    suite.operations.length === 0 ? skip('no operation left by the config') : undefined,
  arbitrary: (suite) => operationRequests(suite, suite.operations),
  async check(call, run) {
    const operation = operationOf(run, call);
    const response = await sendRequest(run.http, operation, call.request, { auth: 'otherEnvironment' });
    const what = `${describeOperation(operation)} with the other environment's key`;
    expectStatus(response, [401], what);
  },
});
