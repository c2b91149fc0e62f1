/**
 * Stage 1, route: finds the document's operation for a method and path. An unknown path is 404; a known
 * path with a method it does not list is 405 (ERR-405).
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { err, ok, type Result } from '../core/result.js';
import { type ApiErrors, apiError } from '../errors/api-error.js';
import type { OperationSpec } from './operation-index.js';

const ROUTED_METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export interface RouteMatch {
  operation: OperationSpec;
  pathParams: Record<string, string>;
}

interface RouteStore {
  byMethod: Map<string, OperationSpec>;
}

export type Router = (method: string, path: string) => Result<RouteMatch, ApiErrors>;

/** `{id}` -> `:id`; find-my-way's parametric syntax. */
const toRoutePattern = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/** brokenRules VERSION-NO-PATH: a router that drops a version segment (`/v1/api/...`, `/api/1.223/...`). */
const LEGACY_VERSION = /\/(v\d+(\.\d+)*|\d+\.\d+(\.\d+)?)(?=\/)/i;

export function createRouter(operations: Iterable<OperationSpec>, broken: BrokenRules = new Set()): Router {
  const router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 500 });
  const stores = new Map<string, RouteStore>();
  for (const operation of operations) {
    let store = stores.get(operation.path);
    if (!store) {
      store = { byMethod: new Map() };
      stores.set(operation.path, store);
      router.on(ROUTED_METHODS, toRoutePattern(operation.path), () => undefined, store);
    }
    store.byMethod.set(operation.method, operation);
  }
  return (method, rawPath) => {
    const path = broken.has('VERSION-NO-PATH') ? rawPath.replace(LEGACY_VERSION, '') : rawPath;
    const found = router.find(
      ROUTED_METHODS.includes(method as HTTPMethod) ? (method as HTTPMethod) : 'GET',
      path,
    );
    if (!found) return err(apiError('not_found', { message: `No resource at ${path}.` }));
    const store = found.store as RouteStore;
    const operation = store.byMethod.get(method);
    // brokenRules ERR-405: a router that matches method and path together finds nothing.
    if (!operation && broken.has('ERR-405'))
      return err(apiError('not_found', { message: `No resource at ${path}.` }));
    if (!operation || !ROUTED_METHODS.includes(method as HTTPMethod)) {
      const allowed = [...store.byMethod.keys()].join(', ');
      return err(
        apiError('method_not_allowed', {
          message: `Method "${method}" not allowed here; allowed: ${allowed}.`,
        }),
      );
    }
    const pathParams: Record<string, string> = {};
    for (const [name, value] of Object.entries(found.params))
      if (value !== undefined) pathParams[name] = value;
    return ok({ operation, pathParams });
  };
}
