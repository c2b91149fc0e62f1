/**
 * ERR-BODY: every error answer (4xx, 5xx) is a JSON array of `{request_id, message, code, field?}`,
 * served as application/json (never problem+json); where an operation declares a richer error schema
 * for a status (428 with a session) that schema applies. Requests that provoke errors of every kind are
 * generated: no credentials, refused methods, unknown paths and ids, invalid paging, malformed JSON and
 * members of the wrong type (these two must get 400: the document's BadRequest), and valid requests.
 */
import type { JsonValue } from '../../../../openapi/document/json.js';
import { expectErrorArray, expectStatus, expectValid } from '../expect-response.js';
import { type OperationRequest, operationOf } from '../operation-requests.js';
import { defineRule, type RunContext, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';
import { type ErrorCase, errorCases } from './error-cases.js';

export const errBody = defineRule<ErrorCase>({
  id: 'ERR-BODY',
  area: 'cross-cutting',
  runs: 40,
  prepare: async (suite) =>
    suite.operations.length === 0 ? skip('no operation left by the config') : undefined,
  arbitrary: (suite) => errorCases(suite),
  async check(errorCase, run) {
    const { response, operation } = await send(errorCase, run);
    const what = `${errorCase.kind}: ${operation ? describeOperation(operation) : errorCase.kind}`;
    if (errorCase.kind === 'wrong-type' || errorCase.kind === 'malformed-json')
      expectStatus(response, [400], what);
    if (response.status < 400) return;
    const declared = operation?.responses.get(String(response.status))?.schema;
    if (declared === undefined)
      expectErrorArray(run.document, response, `${what} answered ${response.status}`);
    else expectValid(run.document, response, declared, `${what} answered ${response.status}`);
  },
});

async function send(errorCase: ErrorCase, run: RunContext) {
  if (!('call' in errorCase)) {
    const response = await run.http.request({ method: errorCase.method, url: errorCase.url });
    return { response, operation: undefined };
  }
  const call: OperationRequest = errorCase.call;
  const operation = operationOf(run, call);
  if (errorCase.kind === 'no-credentials') {
    return { response: await sendRequest(run.http, operation, call.request, { auth: 'none' }), operation };
  }
  if (errorCase.kind === 'malformed-json') {
    const rawBody = '{"truncated": ';
    return { response: await sendRequest(run.http, operation, call.request, { rawBody }), operation };
  }
  if (errorCase.kind === 'wrong-type') {
    const body = { ...(call.request.body as Record<string, JsonValue>), [errorCase.member]: errorCase.value };
    return { response: await sendRequest(run.http, operation, { ...call.request, body }), operation };
  }
  return { response: await sendRequest(run.http, operation, call.request), operation };
}
