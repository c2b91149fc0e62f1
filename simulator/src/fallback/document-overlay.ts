/**
 * A user's own document (`ofkit simulate --document FILE`, e.g. a newer version of the provider's)
 * laid over the bundled one. The operations the bundled document already has stay stateful: their
 * handlers, rules and validation are unchanged. The ones it lacks are routed and validated by the
 * user's document and answered by Prism from that document's examples, so a client can call an
 * operation ofkit does not know yet instead of getting a 404.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { type ApiDocument, createApiDocument } from '../../../openapi/document/api-document.js';
import type { DocumentAjv } from '../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';

export interface DocumentOverlay {
  /** The absolute path of the user's document (Prism reads it again itself). */
  readonly path: string;
  /** The user's document with only the operations the bundled one lacks. */
  readonly document: ApiDocument;
}

/** The first `$ref` that leaves the file: our validators read one self-contained document. */
function externalRef(value: JsonValue | undefined): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = externalRef(item);
      if (found) return found;
    }
  } else if (isObject(value)) {
    if (typeof value.$ref === 'string' && !value.$ref.startsWith('#')) return value.$ref;
    for (const member of Object.values(value)) {
      const found = externalRef(member);
      if (found) return found;
    }
  }
  return undefined;
}

/** The YAML parser, loaded only for a YAML document: loading it was a twentieth of every start. */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

function parseDocument(path: string, text: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = /\.json$/i.test(path) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `--document ${path}: not JSON or YAML (${(error as Error).message.split('\n')[0]})`,
    );
  }
  if (!isObject(parsed as JsonValue) || !/^3\./.test(String((parsed as JsonObject).openapi ?? ''))) {
    throw new ConfigError(`--document ${path}: not an OpenAPI 3 document (no "openapi: 3.x" at its top)`);
  }
  return parsed as JsonObject;
}

/** Reads and checks the user's document: one file (JSON or YAML), OpenAPI 3, no `$ref` to another file. */
export function readUserDocument(file: string): { path: string; document: ApiDocument } {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--document ${file}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
  const raw = parseDocument(file, text);
  const ref = externalRef(raw);
  if (ref) {
    throw new ConfigError(
      `--document ${file}: its $ref "${ref}" points into another file; bundle the document into one file first`,
    );
  }
  return { path, document: createApiDocument(raw, { checkSchemas: false, strict: false }) };
}

/**
 * A schema JSON Schema 2020-12 cannot compile (an OpenAPI 3.0 `exclusiveMinimum: true`) leaves that part
 * of the request unchecked: Prism answers from the examples either way, and the user's document is never
 * what ofkit checks a server against.
 */
function lenient(ajv: DocumentAjv): DocumentAjv {
  const acceptAll = (() => true) as unknown as ValidateFunction;
  return {
    compile(schema) {
      try {
        return ajv.compile(schema);
      } catch {
        return acceptAll;
      }
    },
  };
}

/** `/api/links/{id}/` and `/api/links/{link_id}/` are one route: what matters is the segments. */
const shapeOf = (template: string) => template.replace(/\{[^}]+\}/g, '{}');
const namesIn = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');

/**
 * The user's operation under the bundled path template of the same shape, its path parameters renamed
 * by position (one route per shape), and under an operationId of its own.
 */
function adopt(operation: ApiOperation, template: string | undefined, takenIds: Set<string>): ApiOperation {
  let operationId = operation.operationId;
  for (let n = 2; takenIds.has(operationId); n += 1) operationId = `${operation.operationId}_${n}`;
  takenIds.add(operationId);
  if (template === undefined || template === operation.path) return { ...operation, operationId };
  const theirs = namesIn(operation.path);
  const ours = namesIn(template);
  const parameters = operation.parameters.map((parameter) => {
    const position = parameter.in === 'path' ? theirs.indexOf(parameter.name) : -1;
    return position < 0 ? parameter : { ...parameter, name: ours[position] ?? parameter.name };
  });
  return { ...operation, operationId, path: template, parameters };
}

/** The operations of `user` that no operation of `bundled` answers (same method, same route shape). */
export function overlayOperations(user: ApiDocument, bundled: readonly ApiOperation[]): ApiOperation[] {
  const served = new Set(bundled.map((operation) => `${operation.method} ${shapeOf(operation.path)}`));
  const templates = new Map(bundled.map((operation) => [shapeOf(operation.path), operation.path]));
  const takenIds = new Set(bundled.map((operation) => operation.operationId));
  return user.operations
    .filter((operation) => !served.has(`${operation.method} ${shapeOf(operation.path)}`))
    .map((operation) => adopt(operation, templates.get(shapeOf(operation.path)), takenIds));
}

/** Reads `file` and keeps the operations the bundled document lacks. */
export function loadDocumentOverlay(file: string, bundled: readonly ApiOperation[]): DocumentOverlay {
  const { path, document } = readUserDocument(file);
  const operations = overlayOperations(document, bundled);
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  let ajv: DocumentAjv | undefined;
  return {
    path,
    document: {
      raw: document.raw,
      version: document.version,
      operations,
      operation: (operationId) => byId.get(operationId),
      paths: [...new Set(operations.map((operation) => operation.path))],
      methodsOf: (template) =>
        operations.filter((operation) => operation.path === template).map((operation) => operation.method),
      resolve: document.resolve,
      schema: document.schema,
      // A getter: the user's Ajv is built only when one of these operations is first validated.
      get ajv() {
        ajv ??= lenient(document.ajv);
        return ajv;
      },
      closedAjv: document.closedAjv,
    },
  };
}
