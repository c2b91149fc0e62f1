/**
 * The Prism fallback: every operation without a stateful handler is answered by Prism's mocker from the
 * static examples of the bundled document (Prism is best at answering from examples). Authentication and
 * validation already ran in our pipeline, so Prism's own checks are off.
 */
import { createLogger } from '@stoplight/prism-core';
import { createInstance, getHttpOperationsFromSpec, type IHttpRequest } from '@stoplight/prism-http';
import { ERROR_CATALOGUE, type ErrorCode } from '../core/api-error.js';
import { JSON_CONTENT_TYPE, type SimRequest, type SimResponse } from '../core/http-types.js';

/** Answers a request from the document's examples. */
export interface PrismFallback {
  /** `requestId` goes into the error array when Prism cannot answer (ERR-BODY). */
  answer(request: SimRequest, requestId?: string): Promise<SimResponse>;
}

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
type PrismInstance = ReturnType<typeof createInstance>;
type PrismResult = Awaited<ReturnType<ReturnType<PrismInstance['request']>>>;
type PrismOutput = Extract<PrismResult, { _tag: 'Right' }>['right']['output'];

/** Used when the caller has no request id (randomness lives only in ids/, from the seed). */
const NO_REQUEST_ID = 'prism-fallback';
const PROBLEM_JSON = 'problem+json';

/** Mock from static examples; no request validation, security, response validation or errors mode. */
function createMocker(): PrismInstance {
  return createInstance(
    {
      // Prism writes the Accept header into `mock.mediaTypes` when it is unset, mutating this shared
      // config for every later request; fixing it keeps each answer independent (and JSON, ERR-BODY).
      mock: { dynamic: false, mediaTypes: [JSON_CONTENT_TYPE] },
      checkSecurity: false,
      validateRequest: false,
      validateResponse: false,
      errors: false,
      upstreamProxy: undefined,
      isProxy: false,
    },
    { logger: createLogger('ofkit-prism-fallback', { level: 'silent' }) },
  );
}

/** `METHOD segments`: Prism's router only matches an operation with the same method and segment count. */
function routeKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.split('/').length}`;
}

/** Groups the operations by route key, so Prism routes among a handful of candidates, not all of them. */
function indexOperations(operations: Operations): Map<string, Operations> {
  const index = new Map<string, Operations>();
  for (const operation of operations) {
    const key = routeKey(operation.method, operation.path);
    index.set(key, [...(index.get(key) ?? []), operation]);
  }
  return index;
}

/** The validation stage already accepted the body; a body that is not JSON is passed on as text. */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toPrismRequest(request: SimRequest): IHttpRequest {
  const query: Record<string, string[]> = {};
  for (const [name, value] of request.query) query[name] = [...(query[name] ?? []), value];
  return {
    method: request.method.toLowerCase() as IHttpRequest['method'],
    url: { path: request.path, query },
    headers: { ...request.headers },
    body: parseBody(request.body),
  };
}

/** Prism's error statuses that the API knows; any other becomes a 500 (the document declares no other). */
const CODE_BY_STATUS: ReadonlyMap<unknown, ErrorCode> = new Map<number, ErrorCode>([
  [400, 'invalid'],
  [401, 'authentication_failed'],
  [404, 'not_found'],
  [405, 'method_not_allowed'],
  [408, 'request_timeout'],
  [415, 'unsupported_media_type'],
]);

/** The API's error array (ERR-BODY) for a failure of Prism, never its problem+json. */
function errorResponse(status: unknown, detail: unknown, requestId: string): SimResponse {
  const code = CODE_BY_STATUS.get(status) ?? 'internal_server_error';
  const message = typeof detail === 'string' && detail !== '' ? detail : ERROR_CATALOGUE[code].message;
  return {
    status: ERROR_CATALOGUE[code].status,
    headers: { 'content-type': JSON_CONTENT_TYPE },
    body: [{ request_id: requestId, message, code }],
  };
}

function headerOf(output: PrismOutput, name: string): string {
  const entry = Object.entries(output.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1] ?? '';
}

function toSimResponse(output: PrismOutput, requestId: string): SimResponse {
  if (headerOf(output, 'content-type').includes(PROBLEM_JSON)) {
    const problem = (output.body ?? {}) as { detail?: unknown; title?: unknown };
    return errorResponse(output.statusCode, problem.detail ?? problem.title, requestId);
  }
  const status = output.statusCode;
  if (status === 204 || output.body === undefined) return { status, headers: {} };
  // Prism hands out the document's own example object: a copy keeps a caller from changing later answers.
  return { status, headers: { 'content-type': JSON_CONTENT_TYPE }, body: structuredClone(output.body) };
}

function fromResult(result: PrismResult, requestId: string): SimResponse {
  if (result._tag === 'Right') return toSimResponse(result.right.output, requestId);
  const error = result.left as Error & { status?: unknown; detail?: unknown };
  return errorResponse(error.status ?? 500, error.detail ?? error.message, requestId);
}

/** Loads the bundled document once (openapi/generated/openapi.json, only internal `$ref`s). */
export async function createPrismFallback(documentPath: string): Promise<PrismFallback> {
  const operations = await getHttpOperationsFromSpec(documentPath);
  const index = indexOperations(operations);
  const prism = createMocker();
  return {
    async answer(request, requestId = NO_REQUEST_ID) {
      const input = toPrismRequest(request);
      try {
        const candidates = index.get(routeKey(request.method, request.path));
        if (candidates) {
          const result = await prism.request(input, candidates)();
          if (result._tag === 'Right') return fromResult(result, requestId);
        }
        // No candidate answered: ask again with every operation, for Prism's own 404 or 405.
        return fromResult(await prism.request(input, operations)(), requestId);
      } catch (error) {
        return errorResponse(500, error instanceof Error ? error.message : undefined, requestId);
      }
    },
  };
}
