/** Stage 5, serialize: the only place errors are rendered, as the API's error array (ERR-BODY). */
import type { SimResponse } from '../core/http-types.js';
import { type ApiErrors, ERROR_CATALOGUE, statusOf } from '../errors/api-error.js';

export function renderErrors(errors: ApiErrors, requestId: string): SimResponse {
  const body = errors.map((error) => ({
    request_id: requestId,
    message: error.message ?? ERROR_CATALOGUE[error.code].message,
    code: error.code,
    ...(error.field !== undefined && { field: error.field }),
    ...error.extra,
  }));
  return { status: statusOf(errors), headers: { 'content-type': 'application/json' }, body };
}
