/** Sends a generated request of one operation through a run's recording session. */

import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { fillPath, type RequestInput } from '../arbitraries/request-arbitrary.js';
import type { HttpResponse, HttpSession } from '../http/http-client.js';
import type { Credentials } from '../http/masked-auth.js';

export interface SendOptions {
  auth?: Credentials;
  /** Replaces the method (ERR-405). */
  method?: string;
  /** Replaces the body with raw text (malformed JSON). */
  rawBody?: string;
}

export function sendRequest(
  http: HttpSession,
  operation: ApiOperation,
  input: RequestInput,
  options: SendOptions = {},
): Promise<HttpResponse> {
  const headers = { ...input.headers };
  if (options.rawBody !== undefined) headers['content-type'] = 'application/json';
  return http.request({
    method: options.method ?? operation.method,
    url: fillPath(operation.path, input.pathParams),
    query: input.query,
    headers,
    ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : {}),
    ...(options.rawBody === undefined && input.body !== undefined ? { json: input.body } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
  });
}

/** `METHOD /path` of an operation, for messages. */
export const describeOperation = (operation: ApiOperation) =>
  `${operation.operationId} (${operation.method} ${operation.path})`;
