/** Stage 5, serialize: the only place errors are rendered, as the API's error array (ERR-BODY). */
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { type ApiErrors, ERROR_CATALOGUE, statusOf } from '../core/api-error.js';
import type { SimResponse } from '../core/http-types.js';

export function renderErrors(errors: ApiErrors, requestId: string, broken?: BrokenRules): SimResponse {
  // brokenRules ERR-BODY: the framework's default error renderer, `{"detail": ...}`, not the error array.
  if (broken?.has('ERR-BODY')) {
    const detail = errors[0].message ?? ERROR_CATALOGUE[errors[0].code].message;
    return { status: statusOf(errors), headers: { 'content-type': 'application/json' }, body: { detail } };
  }
  const body = errors.map((error) => ({
    request_id: requestId,
    message: error.message ?? ERROR_CATALOGUE[error.code].message,
    code: error.code,
    ...(error.field !== undefined && { field: error.field }),
    ...error.extra,
  }));
  return { status: statusOf(errors), headers: { 'content-type': 'application/json' }, body };
}
