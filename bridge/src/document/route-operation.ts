/** Names the documented operation of a request through the document's one router. */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { createOperationRouter } from '../../../openapi/document/operation-router.js';

export type Route<Operation> =
  | { ok: true; operation: Operation; pathParams: Record<string, string> }
  /** `path`: no template matches; `method`: a template matches but not with this method. */
  | { ok: false; reason: 'path' | 'method'; problem: string; template?: string };

/** A router over `operations` (method plus path without its query). */
export function createRouter(
  operations: readonly ApiOperation[],
): (method: string, path: string) => Route<ApiOperation> {
  const route = createOperationRouter(operations);
  return (method, path) => {
    const outcome = route(method, path);
    if (outcome.found) return { ok: true, operation: outcome.operation, pathParams: outcome.pathParams };
    if (outcome.reason === 'no-path')
      return { ok: false, reason: 'path', problem: `no documented path matches ${path}` };
    const documented = outcome.allowed.join(', ');
    return {
      ok: false,
      reason: 'method',
      problem: `${method} is not documented for ${outcome.template} (documented: ${documented})`,
      template: outcome.template,
    };
  };
}
