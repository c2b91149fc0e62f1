/**
 * ERR-BODY: every error answer (4xx, 5xx) is a JSON array of `{request_id, message, code, field?}`,
 * served as application/json (never problem+json); where an operation declares a richer error schema
 * for a status (428 with a session) that schema applies. Requests that provoke errors of every kind are
 * generated: no credentials, refused methods, unknown paths and ids, invalid paging, malformed JSON and
 * members of the wrong type (these two must get 400: the document's BadRequest), and valid requests.
 * With the control API, every operation that documents a 400 gets the injected one (the Too Many
 * Sessions error) once, so each shows the error array of its documented 400. Each `request_id` is the
 * request's own (a unique id to quote to support): the error of another request, GET /api/ without
 * credentials, carries another one.
 */
import { isObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray, expectStatus, expectValid } from '../expect-response.js';
import { type OperationRequest, operationOf } from '../operation-requests.js';
import { defineRule, fail, type RunContext, skip, unmet } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';
import { type ErrorCase, errorCases, injected400Cases } from './error-cases.js';

const FAULTS = '/_ofkit/faults/';

export const errBody = defineRule<ErrorCase>({
  id: 'ERR-BODY',
  area: 'cross-cutting',
  // With the control API it injects the Too Many Sessions error (a fault of the whole tenant).
  tenantWide: 'switches',
  runs: 40,
  prepare: async (suite) =>
    suite.operations.length === 0 ? skip('no operation left by the config') : undefined,
  arbitrary: (suite) => errorCases(suite),
  examples: (suite) => injected400Cases(suite),
  async check(errorCase, run) {
    const { response, operation } = await send(errorCase, run);
    const what = `${errorCase.kind}: ${operation ? describeOperation(operation) : errorCase.kind}`;
    const bad = ['wrong-type', 'malformed-json', 'injected-400'];
    if (bad.includes(errorCase.kind)) expectStatus(response, [400], what);
    // A success shows nothing of the error body (a valid request drawn, or a server that refuses nothing).
    if (response.status < 400) unmet(`${what} answered ${response.status}: no error answer to check`);
    const declared = operation?.responses.get(String(response.status))?.schema;
    if (declared === undefined)
      expectErrorArray(run.document, response, `${what} answered ${response.status}`);
    else expectValid(run.document, response, declared, `${what} answered ${response.status}`);
    await expectOwnRequestId(run, response, `${what} answered ${response.status}`);
  },
});

/** The first error item's `request_id`, when the body is an error array that has one. */
function requestIdOf(json: unknown): string | undefined {
  const first = Array.isArray(json) ? json[0] : undefined;
  return isObject(first) && typeof first.request_id === 'string' ? first.request_id : undefined;
}

/** ERR-BODY: another request's error (GET /api/ without credentials, a 401) names another request id. */
async function expectOwnRequestId(run: RunContext, response: HttpResponse, what: string): Promise<void> {
  const id = requestIdOf(response.json);
  if (id === undefined) return;
  // A connection the target closed after refusing the first request (a body it did not read) is no
  // answer: asked again, once, on a new one.
  const ask = () => run.http.request({ method: 'GET', url: '/api/', auth: 'none' });
  const other = await ask().catch(ask);
  if (requestIdOf(other.json) === id) {
    fail(
      `${what} with request_id "${id}", and GET /api/ without credentials (another request) answered ${other.status} with the same request_id: each error's request_id must be its request's own (a unique id to quote to support)`,
    );
  }
}

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
  if (errorCase.kind === 'injected-400') return { response: await injected(run, operation, call), operation };
  if (errorCase.kind === 'wrong-type') {
    const body = { ...(call.request.body as Record<string, JsonValue>), [errorCase.member]: errorCase.value };
    return { response: await sendRequest(run.http, operation, { ...call.request, body }), operation };
  }
  return { response: await sendRequest(run.http, operation, call.request), operation };
}

/** The request once a 400 is armed for its operation; the fault is cleared whatever happens. */
async function injected(run: RunContext, operation: ApiOperation, call: OperationRequest) {
  const json = { operation_id: operation.operationId, status: 400, count: 1 };
  const armed = await run.http.request({ method: 'POST', url: FAULTS, json });
  if (armed.status !== 201) fail(`POST ${FAULTS} ${JSON.stringify(json)} answered ${describeAnswer(armed)}`);
  try {
    return await sendRequest(run.http, operation, call.request);
  } finally {
    await run.http.request({ method: 'DELETE', url: FAULTS });
  }
}
