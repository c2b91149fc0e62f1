/**
 * The one router of a document's operations: a method and a concrete path find the operation and its path
 * parameters, or say why none matches (no documented path, or a path that does not list the method). The
 * simulator's route stage, the Pact checker and the recording proxy all route through it.
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { ApiOperation } from './operation-index.js';

const ROUTED_METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export type RouteOutcome =
  | { found: true; operation: ApiOperation; pathParams: Record<string, string> }
  | { found: false; reason: 'no-path' }
  /** The path is documented (`template`) but not for this method; `allowed` lists the methods it has. */
  | { found: false; reason: 'no-method'; template: string; allowed: string[] };

export type OperationRouter = (method: string, path: string) => RouteOutcome;

interface RouteStore {
  template: string;
  byMethod: Map<string, ApiOperation>;
}

/** `{id}` -> `:id`, find-my-way's parametric syntax. */
const toRoutePattern = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/**
 * Routers already built, by their first operation: the same operations (the shared bundled documents' of
 * every simulator of a process) are routed by one router, built once. A router only reads its operations.
 */
const built = new WeakMap<ApiOperation, { operations: readonly ApiOperation[]; router: OperationRouter }[]>();

const sameOperations = (a: readonly ApiOperation[], b: readonly ApiOperation[]) =>
  a.length === b.length && a.every((operation, index) => operation === b[index]);

/** Routes `method` (upper-case) and `path` (without its query) to one of `operations`. */
export function createOperationRouter(operations: Iterable<ApiOperation>): OperationRouter {
  const list = [...operations];
  const [first] = list;
  if (first === undefined) return buildRouter(list);
  const known = built.get(first) ?? [];
  const found = known.find((entry) => sameOperations(entry.operations, list));
  if (found) return found.router;
  const router = buildRouter(list);
  built.set(first, [...known, { operations: list, router }].slice(-4));
  return router;
}

function buildRouter(operations: readonly ApiOperation[]): OperationRouter {
  const router = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 500 });
  const stores = new Map<string, RouteStore>();
  for (const operation of operations) {
    let store = stores.get(operation.path);
    if (!store) {
      store = { template: operation.path, byMethod: new Map() };
      stores.set(operation.path, store);
      router.on(ROUTED_METHODS, toRoutePattern(operation.path), () => undefined, store);
    }
    store.byMethod.set(operation.method, operation);
  }
  return (method, path) => {
    const routable = ROUTED_METHODS.includes(method as HTTPMethod);
    const found = router.find(routable ? (method as HTTPMethod) : 'GET', path);
    if (!found) return { found: false, reason: 'no-path' };
    const store = found.store as RouteStore;
    const operation = routable ? store.byMethod.get(method) : undefined;
    if (!operation) {
      return {
        found: false,
        reason: 'no-method',
        template: store.template,
        allowed: [...store.byMethod.keys()],
      };
    }
    const pathParams: Record<string, string> = {};
    for (const [name, value] of Object.entries(found.params))
      if (value !== undefined) pathParams[name] = value;
    return { found: true, operation, pathParams };
  };
}
