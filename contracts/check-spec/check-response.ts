/** Does a pact's response agree with its operation: a documented status, a body its schema accepts? */
import { jsonMediaOf } from '../../openapi/document/document-walk.js';
import { isObject } from '../../openapi/document/json.js';
import { isJson } from './check-request.js';
import type { RoutedOperation } from './operation-router.js';
import type { PactResponse } from './pact-file.js';
import type { SchemaValidation } from './schema-validation.js';

/** Every reason the response is not one the operation documents. */
export function checkResponse(
  routed: RoutedOperation,
  response: PactResponse,
  schemas: SchemaValidation,
): string[] {
  const { operationId } = routed;
  const responses = isObject(routed.entry.operation.responses) ? routed.entry.operation.responses : {};
  const status = String(response.status);
  const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
  if (documented === undefined) {
    const statuses = Object.keys(responses).join(', ');
    return [`status ${status} is not documented for ${operationId} (documented: ${statuses})`];
  }
  if (response.body === undefined) return [];
  const media = jsonMediaOf(schemas.document, documented);
  if (!media) return [`${operationId} documents no JSON body for ${status}, but the pact expects one`];
  if (!isJson(response.contentType)) {
    return [`the response body is ${response.contentType}; ${operationId} answers ${status} with JSON`];
  }
  return schemas.response(media.schema ?? {}, response.body, `response ${status} body`);
}
