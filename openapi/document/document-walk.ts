/** Walks the operations of a bundled OpenAPI document. */
import { isObject, type JsonObject, type JsonValue } from './json.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationEntry {
  method: string;
  path: string;
  operation: JsonObject;
  /** Path-item parameters followed by the operation's own. */
  parameters: JsonObject[];
}

/** Follows one internal `$ref` (`#/a/b`) in the document. */
export function resolveRef(document: JsonObject, value: JsonValue | undefined): JsonValue | undefined {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  let node: JsonValue | undefined = document;
  for (const raw of value.$ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return resolveRef(document, node);
}

/** Every operation under `paths`, in document order. */
export function listOperations(document: JsonObject): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolveRef(document, rawItem);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      const parameters = [...shared, ...own].map((p) => resolveRef(document, p)).filter(isObject);
      entries.push({ method: method.toUpperCase(), path, operation, parameters });
    }
  }
  return entries;
}

/** The `application/json` media type of a request body or response (following `$ref`s), when it has one. */
export function jsonMediaOf(document: JsonObject, holder: JsonValue | undefined): JsonObject | undefined {
  const resolved = resolveRef(document, holder);
  if (!isObject(resolved) || !isObject(resolved.content)) return undefined;
  const media = resolved.content['application/json'];
  return isObject(media) ? media : undefined;
}
