/**
 * Which record members the document marks personal (`x-personal: true`): names, document numbers,
 * account numbers, emails, phones, addresses. A query filter on such a member carries a personal
 * value too (`customer__identifier=...`), so the redactor asks here by member path.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import type { BridgeDocument, BridgeOperation } from '../document/bridge-document.js';
import { isCredentialName } from './secret-places.js';

/** Every node a schema expands to without a value at hand: $ref, allOf and all branches. */
function expand(document: BridgeDocument, schema: JsonValue | undefined, depth = 0): JsonObject[] {
  const resolved = document.resolve(schema);
  if (!isObject(resolved) || depth > 16) return [];
  const parts = [resolved.allOf, resolved.oneOf, resolved.anyOf].flatMap((list) =>
    Array.isArray(list) ? list : [],
  );
  return [resolved, ...parts.flatMap((part) => expand(document, part, depth + 1))];
}

/** The nodes of a member path (`customer`, `identifier`) under `schema`, through arrays. */
function nodesAt(document: BridgeDocument, schema: JsonValue, steps: readonly string[]): JsonObject[] {
  let nodes = expand(document, schema);
  for (const step of steps) {
    const items = nodes.flatMap((node) => (node.items !== undefined ? expand(document, node.items) : []));
    nodes = [...nodes, ...items].flatMap((node) =>
      isObject(node.properties) && node.properties[step] !== undefined
        ? expand(document, node.properties[step])
        : [],
    );
  }
  return nodes;
}

export const isPersonalSchema = (schema: JsonObject) => schema['x-personal'] === true;

const reaching = new WeakMap<object, boolean>();

/** The schema nodes directly inside `schema` (combinators, members, items, map values, its $ref). */
function innerNodes(document: BridgeDocument, schema: JsonObject): JsonObject[] {
  const resolved = document.resolve(schema);
  return [
    ...[schema.allOf, schema.oneOf, schema.anyOf].flatMap((list) => (Array.isArray(list) ? list : [])),
    ...(isObject(schema.properties) ? Object.values(schema.properties) : []),
    schema.items,
    schema.additionalProperties,
    resolved === schema ? undefined : resolved,
  ].filter(isObject);
}

/**
 * Whether something to redact is `schema` or lies anywhere inside it (through $ref, combinators,
 * items): a personal member, or a member named like a credential.
 */
export function reachesPersonal(document: BridgeDocument, schema: JsonObject): boolean {
  const known = reaching.get(schema);
  if (known !== undefined) return known;
  const seen = new Set<object>();
  const stack = [schema];
  let found = false;
  for (let node = stack.pop(); node !== undefined && !found; node = stack.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    found =
      isPersonalSchema(node) ||
      reaching.get(node) === true ||
      (isObject(node.properties) && Object.keys(node.properties).some(isCredentialName));
    if (!found) stack.push(...innerNodes(document, node));
  }
  reaching.set(schema, found);
  return found;
}

/** The record schema of a list operation: its 200 page's `results` items, or its array's items. */
function recordSchemaOf(document: BridgeDocument, operation: BridgeOperation): JsonValue | undefined {
  const page = document.resolve(operation.responses.get('200')?.schema);
  if (!isObject(page)) return undefined;
  const results = isObject(page.properties) ? document.resolve(page.properties.results) : undefined;
  if (isObject(results) && results.items !== undefined) return results.items;
  return page.items ?? page;
}

/** Whether `member` (a `__` path such as `customer__identifier`) of the operation's records is personal. */
export function createPersonalFilterLookup(document: BridgeDocument) {
  const cache = new Map<string, boolean>();
  return (operation: BridgeOperation, member: string): boolean => {
    const key = `${operation.operationId} ${member}`;
    let found = cache.get(key);
    if (found === undefined) {
      const record = recordSchemaOf(document, operation);
      found = record !== undefined && nodesAt(document, record, member.split('__')).some(isPersonalSchema);
      cache.set(key, found);
    }
    return found;
  };
}
