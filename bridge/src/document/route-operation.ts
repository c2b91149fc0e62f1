/**
 * Names the documented operation of a request: method plus path template. The one place the bridge
 * reaches the operation router (it lives with the Pact checks today and will move beside the document).
 */
import { createOperationRouter } from '../../../contracts/check-spec/operation-router.js';
import type { JsonObject } from '../../../openapi/validation/document-ajv.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export type Route<Operation> =
  | { ok: true; operation: Operation; pathParams: Record<string, string> }
  /** `path`: no template matches; `method`: a template matches but not with this method. */
  | { ok: false; reason: 'path' | 'method'; problem: string; template?: string };

/** A router over `document` that answers with the operation `byId` gives for the matched operationId. */
export function createRouter<Operation>(
  document: JsonObject,
  byId: (operationId: string) => Operation | undefined,
): (method: string, path: string) => Route<Operation> {
  const route = createOperationRouter(document);
  return (method, path) => {
    const routed = route(method, path);
    if (!routed.ok) {
      // Another method routes: the path is documented, the method is not (ERR-405's case).
      const other = METHODS.map((candidate) => route(candidate, path)).find((found) => found.ok);
      return other?.ok
        ? { ok: false, reason: 'method', problem: routed.problem, template: other.value.entry.path }
        : { ok: false, reason: 'path', problem: routed.problem };
    }
    const operation = byId(routed.value.operationId);
    if (operation === undefined)
      return { ok: false, reason: 'path', problem: `no operation ${routed.value.operationId}` };
    return { ok: true, operation, pathParams: routed.value.pathParams };
  };
}
