/**
 * A bundled document as every part reads it (the simulator, the conformance suite, the Pact checker):
 * operations with their parameters, request body and responses resolved, and one Ajv (JSON Schema
 * 2020-12) over its schemas, built on first use.
 */
import { readFileSync } from 'node:fs';
import { BUNDLED_DOCUMENTS, type BundledName, sharedBundledDocument } from './bundled-documents.js';
import { withClosedResponses } from './closed-responses.js';
import { createDocumentAjv, type DocumentAjv, type DocumentAjvOptions } from './document-ajv.js';
import { resolveRef } from './document-walk.js';
import { isObject, type JsonObject, type JsonValue } from './json.js';
import { type ApiOperation, indexOperations } from './operation-index.js';

/** openapi/generated/openapi.json, the single-file bundle every tool reads. */
export const DEFAULT_DOCUMENT_PATH = BUNDLED_DOCUMENTS.api;

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
  /** Ajv over the document's schemas (built on first use). */
  readonly ajv: DocumentAjv;
  /**
   * An Ajv over the document with its response-only schemas closed: what tells the members a response
   * carries that the document does not name (a note, or a failure under `--strict`).
   */
  closedAjv(): DocumentAjv;
}

/** Builds the view of a parsed document; `ajv` options apply to its Ajv (built on first use). */
export function createApiDocument(raw: JsonObject, ajvOptions: DocumentAjvOptions = {}): ApiDocument {
  const operations = indexOperations(raw);
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const methods = new Map<string, string[]>();
  for (const operation of operations) {
    methods.set(operation.path, [...(methods.get(operation.path) ?? []), operation.method]);
  }
  const info = isObject(raw.info) ? raw.info : {};
  const components = isObject(raw.components) ? raw.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  let ajv: DocumentAjv | undefined;
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
    get ajv() {
      ajv ??= createDocumentAjv(raw, ajvOptions);
      return ajv;
    },
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

const sharedViews = new Map<string, ApiDocument>();

/**
 * The view of a shared bundled document (parsed once per process, frozen), one per document and Ajv
 * options: every simulator of a process reads the same operations, and their validators are compiled once.
 */
export function bundledApiDocument(name: BundledName, ajvOptions: DocumentAjvOptions = {}): ApiDocument {
  const key = `${name}:${ajvOptions.checkSchemas ?? true}:${ajvOptions.strict ?? true}`;
  let view = sharedViews.get(key);
  if (view === undefined) {
    view = createApiDocument(sharedBundledDocument(name), ajvOptions);
    sharedViews.set(key, view);
  }
  return view;
}
