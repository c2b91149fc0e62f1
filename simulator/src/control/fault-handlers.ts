/**
 * Fault injection (`/_ofkit/faults/`, ERR-500-408): the next N requests of an operation answer 500 or
 * 408 in the error format. The pipeline consumes them (`takeFault`) before validation and the handler.
 */
import { listOperations } from '../../../openapi/document/document-walk.js';
import type { JsonObject } from '../../../openapi/document/json.js';
import { apiError } from '../core/api-error.js';
import { arm, disarm, disarmAll, type Fault, listArmed } from '../core/armed-switches.js';
import { type Handler, json, noContent } from '../core/handler.js';
import { err, ok } from '../core/result.js';

interface FaultRequest {
  operation_id: string;
  status: 400 | 408 | 500;
  count?: number;
}

const listFaults: Handler = async ({ tenant }) => ok(json(200, await listArmed(tenant, 'faults')));

/** FaultRequest names an operationId of `api`: a fault on a misspelt id would wait forever without a word. */
const injectFault =
  (apiOperationIds: ReadonlySet<string>): Handler =>
  async ({ input, tenant }) => {
    const body = input.body as FaultRequest;
    if (!apiOperationIds.has(body.operation_id)) {
      return err(
        apiError('invalid', {
          field: 'operation_id',
          message: `No operation ${body.operation_id} in openapi.yaml; faults apply to the API's operations.`,
        }),
      );
    }
    // FaultRequest: `count` defaults to 1.
    const fault: Fault = {
      id: tenant.ids.uuid(),
      operation_id: body.operation_id,
      status: body.status,
      remaining: body.count ?? 1,
    };
    await arm(tenant, 'faults', fault);
    return ok(json(201, { ...fault }));
  };

const clearFaults: Handler = async ({ tenant }) => {
  await disarmAll(tenant, 'faults');
  return ok(noContent());
};

/** Disarms one fault (the dashboard's per-fault button). */
const removeFault: Handler = async ({ input, tenant }) => {
  const id = String(input.path.fault_id);
  if (!(await disarm(tenant, 'faults', id)))
    return err(apiError('not_found', { message: `No fault ${id}.` }));
  return ok(noContent());
};

/** The fault operations, for the operations of the API document `api` (openapi.yaml, bundled). */
export function faultHandlers(api: JsonObject): [string, Handler][] {
  const operationIds = new Set(listOperations(api).map((entry) => String(entry.operation.operationId)));
  return [
    ['listFaults', listFaults],
    ['injectFault', injectFault(operationIds)],
    ['clearFaults', clearFaults],
    ['removeFault', removeFault],
  ];
}
