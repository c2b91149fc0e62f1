/**
 * The OpenAPI document turned into what the pipeline needs per operation: its id, parameters, body
 * schema, responses and `x-` extensions. Built once at start-up.
 */
import {
  isObject,
  jsonMediaOf,
  listOperations,
  resolveRef,
} from '../../../openapi/checks/openapi-document.js';
import type { JsonObject, JsonValue } from '../../../openapi/validation/document-ajv.js';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonValue;
  /** The document's `x-filter` of a list filter: the record member and lookup its name does not say. */
  filter?: { member?: string; lookup?: string };
}

export interface OperationSpec {
  operationId: string;
  method: string;
  /** The document's path template, e.g. `/api/links/{id}/`. */
  path: string;
  parameters: ParameterSpec[];
  /** The JSON request body schema, when the operation takes one. */
  body?: { schema: JsonValue; required: boolean };
  /** Status -> JSON schema of the response body (undefined for bodiless responses). */
  responses: Map<number, JsonValue | undefined>;
  operation: JsonObject;
}

function toParameter(raw: JsonObject): ParameterSpec | undefined {
  const where = raw.in;
  if (where !== 'path' && where !== 'query' && where !== 'header') return undefined;
  const name = String(raw.name);
  return {
    name: where === 'header' ? name.toLowerCase() : name,
    in: where,
    required: raw.required === true,
    schema: raw.schema ?? {},
    ...(isObject(raw['x-filter']) && { filter: raw['x-filter'] as ParameterSpec['filter'] }),
  };
}

const jsonSchemaOf = (document: JsonObject, holder: JsonValue | undefined) =>
  jsonMediaOf(document, holder)?.schema;

/** Every operation of the document, keyed by operationId. */
export function indexOperations(document: JsonObject): Map<string, OperationSpec> {
  const index = new Map<string, OperationSpec>();
  for (const { method, path, operation, parameters } of listOperations(document)) {
    const operationId = String(operation.operationId);
    const responses = new Map<number, JsonValue | undefined>();
    for (const [status, response] of Object.entries(
      isObject(operation.responses) ? operation.responses : {},
    )) {
      responses.set(Number(status), jsonSchemaOf(document, response));
    }
    const requestBody = resolveRef(document, operation.requestBody);
    const bodySchema = jsonSchemaOf(document, requestBody);
    index.set(operationId, {
      operationId,
      method,
      path,
      parameters: parameters.map(toParameter).filter((p): p is ParameterSpec => p !== undefined),
      ...(bodySchema !== undefined && {
        body: { schema: bodySchema, required: isObject(requestBody) && requestBody.required === true },
      }),
      responses,
      operation,
    });
  }
  return index;
}
