/** Stage 5, serialize: the only place errors are rendered, as the API's error array (ERR-BODY). */
import { type ApiErrors, ERROR_CATALOGUE, statusOf } from '../core/api-error.js';
import type { SimResponse } from '../core/http-types.js';

/** Renders error values as one response. */
export type ErrorRenderer = (errors: ApiErrors, requestId: string) => SimResponse;

/** ERR-BODY: a JSON array of `{request_id, message, code, field?}`. */
export const renderErrors: ErrorRenderer = (errors, requestId) => {
  const body = errors.map((error) => ({
    request_id: requestId,
    message: error.message ?? ERROR_CATALOGUE[error.code].message,
    code: error.code,
    ...(error.field !== undefined && { field: error.field }),
    ...error.extra,
  }));
  return { status: statusOf(errors), headers: { 'content-type': 'application/json' }, body };
};
