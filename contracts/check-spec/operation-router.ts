/** Finds the documented operation of a pact request through the document's one router. */
import { listOperations, type OperationEntry } from '../../openapi/document/document-walk.js';
import type { JsonObject } from '../../openapi/document/json.js';
import { indexOperations } from '../../openapi/document/operation-index.js';
import { createOperationRouter as createRouter } from '../../openapi/document/operation-router.js';

export interface RoutedOperation {
  entry: OperationEntry;
  operationId: string;
  pathParams: Record<string, string>;
}

export type RouteResult = { ok: true; value: RoutedOperation } | { ok: false; problem: string };

/** The router of one document: `route(method, path)` names the operation or says why none matches. */
export function createOperationRouter(document: JsonObject): (method: string, path: string) => RouteResult {
  const route = createRouter(indexOperations(document));
  const entries = new Map(
    listOperations(document).map((entry) => [String(entry.operation.operationId), entry]),
  );
  return (method, rawPath) => {
    const path = rawPath.split('?')[0] ?? rawPath;
    const outcome = route(method, path);
    if (outcome.found) {
      const { operationId } = outcome.operation;
      return {
        ok: true,
        value: { entry: entries.get(operationId)!, operationId, pathParams: outcome.pathParams },
      };
    }
    if (outcome.reason === 'no-path') return { ok: false, problem: `no documented path matches ${path}` };
    const documented = outcome.allowed.join(', ');
    return {
      ok: false,
      problem: `${method} is not documented for ${outcome.template} (documented: ${documented})`,
    };
  };
}
