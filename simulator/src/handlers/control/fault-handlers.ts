/**
 * Fault injection (`/_ofkit/faults/`, ERR-500-408): the next N requests of an operation answer 500 or
 * 408 in the error format. The pipeline consumes them (`takeFault`) before validation and the handler.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { listOperations } from '../../../../openapi/checks/openapi-document.js';
import type { JsonObject } from '../../../../openapi/validation/document-ajv.js';
import { err, ok } from '../../core/result.js';
import { apiError } from '../../errors/api-error.js';
import type { Fault } from '../../tenants/tenant-runtime.js';
import { type Handler, json, noContent } from '../handler.js';

const API_DOCUMENT = resolve(import.meta.dirname, '../../../../openapi/generated/openapi.json');

let apiOperations: ReadonlySet<string> | undefined;

/**
 * The operationIds of openapi.yaml, read once per process on first use: FaultRequest names one, and a
 * fault on a misspelt id would otherwise wait forever without a word.
 */
function apiOperationIds(): ReadonlySet<string> {
  if (!apiOperations) {
    const document = JSON.parse(readFileSync(API_DOCUMENT, 'utf8')) as JsonObject;
    apiOperations = new Set(listOperations(document).map((entry) => String(entry.operation.operationId)));
  }
  return apiOperations;
}

interface FaultRequest {
  operation_id: string;
  status: 408 | 500;
  count?: number;
}

const listFaults: Handler = async ({ tenant }) =>
  ok(
    json(
      200,
      tenant.faults.map((fault) => ({ ...fault })),
    ),
  );

const injectFault: Handler = async ({ input, tenant }) => {
  const body = input.body as FaultRequest;
  if (!apiOperationIds().has(body.operation_id)) {
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
  tenant.faults.push(fault);
  return ok(json(201, { ...fault }));
};

const clearFaults: Handler = async ({ tenant }) => {
  tenant.faults = [];
  return ok(noContent());
};

export const faultHandlers: [string, Handler][] = [
  ['listFaults', listFaults],
  ['injectFault', injectFault],
  ['clearFaults', clearFaults],
];
