/**
 * Stage 1, route: finds the document's operation for a method and path (the document's one router). An
 * unknown path is 404 (VERSION-NO-PATH: `/v1/api/...` is no path of the document); a known path with a
 * method it does not list is 405 (ERR-405).
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { createOperationRouter } from '../../../openapi/document/operation-router.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { err, ok, type Result } from '../core/result.js';

export interface RouteMatch {
  operation: ApiOperation;
  pathParams: Record<string, string>;
}

export type Router = (method: string, path: string) => Result<RouteMatch, ApiErrors>;

export function createRouter(operations: Iterable<ApiOperation>): Router {
  const route = createOperationRouter(operations);
  /** The 404's message; every path of the API ends with a slash, so a path without one names its own. */
  const notFound = (path: string) => {
    const slashed = `${path}/`;
    const probe = path.endsWith('/') ? undefined : route('GET', slashed);
    const known = probe !== undefined && (probe.found || probe.reason !== 'no-path');
    return known
      ? `No resource at ${path}; the resource is ${slashed} (paths end with a slash).`
      : `No resource at ${path}.`;
  };
  return (method, path) => {
    const outcome = route(method, path);
    if (outcome.found) return ok({ operation: outcome.operation, pathParams: outcome.pathParams });
    if (outcome.reason === 'no-path') return err(apiError('not_found', { message: notFound(path) }));
    const allowed = outcome.allowed.join(', ');
    return err(
      apiError('method_not_allowed', {
        message: `Method "${method}" not allowed here; allowed: ${allowed}.`,
      }),
    );
  };
}
