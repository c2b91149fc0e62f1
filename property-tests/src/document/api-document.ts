/**
 * The bundled API document as the suite reads it: operations with their parameters, request body and
 * responses resolved, and one Ajv (JSON Schema 2020-12) over its schemas. The suite knows the API only
 * through this document and a base URL.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { jsonMediaOf, listOperations, resolveRef } from '../../../openapi/checks/openapi-document.js';
import { withClosedResponses } from '../../../openapi/validation/closed-responses.js';
import {
  createDocumentAjv,
  type DocumentAjv,
  isObject,
  type JsonObject,
  type JsonValue,
} from '../../../openapi/validation/document-ajv.js';

/** openapi/generated/openapi.json, the single-file bundle every tool reads. */
export const DEFAULT_DOCUMENT_PATH = resolve(import.meta.dirname, '../../../openapi/generated/openapi.json');

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
  /** The operation object itself (x- extensions, description). */
  raw: JsonObject;
}

export interface ApiDocument {
  raw: JsonObject;
  /** `info.version`. */
  version: string;
  operations: ApiOperation[];
  operation(operationId: string): ApiOperation | undefined;
  /** Path templates in document order. */
  paths: string[];
  /** Upper-case methods a path template declares. */
  methodsOf(path: string): string[];
  /** Follows internal `$ref`s. */
  resolve(value: JsonValue | undefined): JsonValue | undefined;
  /** `#/components/schemas/<name>`. */
  schema(name: string): JsonValue;
  ajv: DocumentAjv;
  /**
   * An Ajv over the document with its response-only schemas closed: what tells the members a response
   * carries that the document does not name (a note, or a failure under `--strict`).
   */
  closedAjv(): DocumentAjv;
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

function toOperation(document: JsonObject, entry: ReturnType<typeof listOperations>[number]): ApiOperation {
  const requestBody = resolveRef(document, entry.operation.requestBody);
  const media = jsonMediaOf(document, requestBody);
  const operation: ApiOperation = {
    operationId: String(entry.operation.operationId),
    method: entry.method,
    path: entry.path,
    parameters: entry.parameters.map(toParameter),
    responses: toResponses(document, entry.operation.responses),
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

/** Builds the suite's view of a parsed document. */
export function createApiDocument(raw: JsonObject): ApiDocument {
  const operations = listOperations(raw).map((entry) => toOperation(raw, entry));
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const methods = new Map<string, string[]>();
  for (const operation of operations) {
    methods.set(operation.path, [...(methods.get(operation.path) ?? []), operation.method]);
  }
  const info = isObject(raw.info) ? raw.info : {};
  const components = isObject(raw.components) ? raw.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  let closed: DocumentAjv | undefined;
  return {
    raw,
    version: String(info.version ?? ''),
    operations,
    operation: (operationId) => byId.get(operationId),
    paths: [...methods.keys()],
    methodsOf: (path) => methods.get(path) ?? [],
    resolve: (value) => resolveRef(raw, value),
    schema: (name) => {
      const found = schemas[name];
      if (found === undefined) throw new Error(`No schema ${name} in the document`);
      return found;
    },
    ajv: createDocumentAjv(raw),
    closedAjv: () => {
      closed ??= createDocumentAjv(withClosedResponses(raw));
      return closed;
    },
  };
}

/** Reads and parses a bundled document (default: openapi/generated/openapi.json). */
export function loadApiDocument(file: string = DEFAULT_DOCUMENT_PATH): ApiDocument {
  return createApiDocument(JSON.parse(readFileSync(file, 'utf8')) as JsonObject);
}
