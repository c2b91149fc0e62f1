/**
 * The one reading of an operation of a bundled document, shared by the simulator (its routes, stages and
 * handlers), the conformance suite and the Pact checker: parameters, request body and responses resolved.
 */
import { jsonMediaOf, listOperations, type OperationEntry, resolveRef } from './document-walk.js';
import { isObject, type JsonObject, type JsonValue } from './json.js';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ApiParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonValue;
  /** A list filter's `x-filter`: the record member and lookup its name does not say. */
  filter?: { member?: string; lookup?: string };
  /** `x-response-shaping`: `fields` / `omit`, which shape the answer's records instead of filtering. */
  shapesResponse: boolean;
}

export interface ApiResponse {
  /** The JSON body schema, when the response has a body. */
  schema?: JsonValue;
}

export interface ApiOperation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The path template, e.g. `/api/links/{id}/`. */
  path: string;
  parameters: ApiParameter[];
  /** The JSON request body: its schema, whether it is required, and the document's example of it. */
  body?: { schema: JsonValue; required: boolean; example?: JsonValue };
  /** Declared responses by status code (`'200'`, `'404'`, ...). */
  responses: Map<string, ApiResponse>;
  /** The rule IDs the operation obeys (`x-rules`). */
  rules: readonly string[];
  /** The operation object itself (x- extensions, description). */
  raw: JsonObject;
}

function toParameter(raw: JsonObject): ApiParameter {
  return {
    name: String(raw.name),
    in: String(raw.in) as ParameterLocation,
    required: raw.required === true,
    schema: raw.schema ?? {},
    shapesResponse: raw['x-response-shaping'] === true,
    ...(isObject(raw['x-filter']) && { filter: raw['x-filter'] as ApiParameter['filter'] }),
  };
}

function toResponses(document: JsonObject, responses: JsonValue | undefined): Map<string, ApiResponse> {
  const map = new Map<string, ApiResponse>();
  if (!isObject(responses)) return map;
  for (const [status, response] of Object.entries(responses)) {
    const media = jsonMediaOf(document, response);
    map.set(status, media?.schema === undefined ? {} : { schema: media.schema });
  }
  return map;
}

function toOperation(document: JsonObject, entry: OperationEntry): ApiOperation {
  const requestBody = resolveRef(document, entry.operation.requestBody);
  const media = jsonMediaOf(document, requestBody);
  const operation: ApiOperation = {
    operationId: String(entry.operation.operationId),
    method: entry.method,
    path: entry.path,
    parameters: entry.parameters.map(toParameter),
    responses: toResponses(document, entry.operation.responses),
    rules: Array.isArray(entry.operation['x-rules']) ? entry.operation['x-rules'].map(String) : [],
    raw: entry.operation,
  };
  if (media?.schema !== undefined) {
    operation.body = {
      schema: media.schema,
      required: isObject(requestBody) && requestBody.required === true,
    };
    if (media.example !== undefined) operation.body.example = media.example;
  }
  return operation;
}

/** Every operation of the document, in document order. */
export function indexOperations(document: JsonObject): ApiOperation[] {
  return listOperations(document).map((entry) => toOperation(document, entry));
}
