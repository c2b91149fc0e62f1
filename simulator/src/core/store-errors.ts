/**
 * A store that failed while a request was served, in the API's error format: a client can tell a
 * request that surely changed nothing at its failed step (`store_unavailable`) from one whose effect is
 * unknown (`store_effect_unknown`: sent, unanswered, it may have happened), and knows to read before it
 * retries either (steps before the failed one may have been made).
 */
import { isStoreFailure } from '../store/store-failure.js';
import { type ApiErrors, apiError } from './api-error.js';

export function storeFailureErrors(cause: unknown): ApiErrors | undefined {
  if (!isStoreFailure(cause)) return undefined;
  if (cause.kind === 'timeout')
    return apiError('store_effect_unknown', {
      message: `The simulator's store did not answer in time (${cause.message}): this request's effect is unknown, it may have happened. Read the state before retrying.`,
    });
  return apiError('store_unavailable', {
    message: `The simulator's store cannot be reached (${cause.message}): the request stopped at its first step that needed it; earlier steps may have been made. Read the state before retrying.`,
  });
}
