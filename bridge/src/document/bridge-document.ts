/**
 * The API document as the bridge reads it: every operation with its parameters, request body and
 * responses resolved, its `x-` annotations, one Ajv (JSON Schema 2020-12, the validators `ofkit check`
 * uses) over its schemas, and the router that names the operation of a request.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { jsonMediaOf, listOperations, resolveRef } from '../../../openapi/checks/openapi-document.js';
import {
  createDocumentAjv,
  type DocumentAjv,
  isObject,
  type JsonObject,
  type JsonValue,
} from '../../../openapi/validation/document-ajv.js';
import { createRouter, type Route } from './route-operation.js';

/** openapi/generated/openapi.json: the bundled document every tool of the project reads. */
export const DOCUMENT_PATH = resolve(import.meta.dirname, '../../../openapi/generated/openapi.json');

export interface BridgeParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonValue;
  /** The document's `x-filter` of a list filter: the record member and lookup its name does not say. */
  filter?: { member?: string; lookup?: string };
  /** `fields` / `omit`: they shape the answer's records instead of filtering them. */
  shapesResponse: boolean;
}

export interface BridgeOperation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/api/links/{id}/`. */
  path: string;
  parameters: BridgeParameter[];
  body?: { schema: JsonValue; required: boolean };
  /** Documented statuses (`'200'`, `'4XX'`, `'default'`), each with its JSON body schema when it has one. */
  responses: Map<string, { schema?: JsonValue }>;
  /** The rule IDs the operation names in `x-rules`. */
  rules: readonly string[];
  raw: JsonObject;
}

export interface BridgeDocument {
  raw: JsonObject;
  /** `info.version`: the interface version the document describes. */
  version: string;
  ajv: DocumentAjv;
  operations: readonly BridgeOperation[];
  operation(operationId: string): BridgeOperation | undefined;
  /** The documented operation of a request path (no query), or why none matches. */
  route(method: string, path: string): Route<BridgeOperation>;
  /** Follows internal `$ref`s. */
  resolve(value: JsonValue | undefined): JsonValue | undefined;
  /** The documented response of `status` (exact, then `4XX`, then `default`). */
  responseOf(operation: BridgeOperation, status: number): { schema?: JsonValue } | undefined;
}

function toParameter(raw: JsonObject): BridgeParameter {
  return {
    name: String(raw.name),
    in: String(raw.in) as BridgeParameter['in'],
    required: raw.required === true,
    schema: raw.schema ?? {},
    shapesResponse: raw['x-response-shaping'] === true,
    ...(isObject(raw['x-filter']) && { filter: raw['x-filter'] as BridgeParameter['filter'] }),
  };
}

function toResponses(document: JsonObject, responses: JsonValue | undefined) {
  const map = new Map<string, { schema?: JsonValue }>();
  if (!isObject(responses)) return map;
  for (const [status, response] of Object.entries(responses)) {
    const media = jsonMediaOf(document, response);
    map.set(status, media?.schema === undefined ? {} : { schema: media.schema });
  }
  return map;
}

function toOperation(
  document: JsonObject,
  entry: ReturnType<typeof listOperations>[number],
): BridgeOperation {
  const requestBody = resolveRef(document, entry.operation.requestBody);
  const media = jsonMediaOf(document, requestBody);
  const rules = entry.operation['x-rules'];
  return {
    operationId: String(entry.operation.operationId),
    method: entry.method,
    path: entry.path,
    parameters: entry.parameters.map(toParameter),
    responses: toResponses(document, entry.operation.responses),
    rules: Array.isArray(rules) ? rules.map(String) : [],
    raw: entry.operation,
    ...(media?.schema !== undefined && {
      body: { schema: media.schema, required: isObject(requestBody) && requestBody.required === true },
    }),
  };
}

/** Builds the bridge's view of a parsed bundled document. */
export function createBridgeDocument(raw: JsonObject): BridgeDocument {
  const operations = listOperations(raw).map((entry) => toOperation(raw, entry));
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const route = createRouter(raw, (operationId) => byId.get(operationId));
  const info = isObject(raw.info) ? raw.info : {};
  return {
    raw,
    version: String(info.version ?? ''),
    ajv: createDocumentAjv(raw, { checkSchemas: false }),
    operations,
    operation: (operationId) => byId.get(operationId),
    route,
    resolve: (value) => resolveRef(raw, value),
    responseOf: (operation, status) => {
      const { responses } = operation;
      return (
        responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('default')
      );
    },
  };
}

let loaded: BridgeDocument | undefined;

/** The project's document (openapi/generated/openapi.json), read and compiled once per process. */
export function loadBridgeDocument(): BridgeDocument {
  loaded ??= createBridgeDocument(JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as JsonObject);
  return loaded;
}
