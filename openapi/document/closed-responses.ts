/**
 * The document's response schemas are open (a tolerant reader is the contract: the provider adds
 * members over time), but the simulator must still send exactly the members the document names. The
 * simulator's own tests therefore check responses against a copy of the document in which every object
 * schema that only responses reach, and every object nested in one, is closed again.
 */
import type { JsonObject } from './json.js';

const PREFIX = '#/components/schemas/';

function collectRefs(node: unknown, schemas: JsonObject, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, schemas, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const ref = (node as JsonObject).$ref;
  if (typeof ref === 'string' && ref.startsWith(PREFIX)) {
    const name = ref.slice(PREFIX.length);
    if (!into.has(name)) {
      into.add(name);
      collectRefs(schemas[name], schemas, into);
    }
  }
  for (const value of Object.values(node)) collectRefs(value, schemas, into);
}

/** Closes `schema` and the objects nested in it (not through `$ref`: those are closed by name). */
function close(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) close(item);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const object = schema as JsonObject;
  if (typeof object.properties === 'object' && !('additionalProperties' in object)) {
    object.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(object))
    if (key !== 'examples' && key !== 'example') close(value);
}

/** A copy of `document` whose response-only schemas are closed. */
export function withClosedResponses(document: JsonObject): JsonObject {
  const copy = structuredClone(document) as JsonObject;
  const schemas = ((copy.components as JsonObject | undefined)?.schemas ?? {}) as JsonObject;
  const requests = new Set<string>();
  const responses = new Set<string>();
  for (const item of Object.values((copy.paths ?? {}) as JsonObject)) {
    for (const operation of Object.values(item as JsonObject)) {
      if (typeof operation !== 'object' || operation === null) continue;
      collectRefs((operation as JsonObject).requestBody, schemas, requests);
      collectRefs((operation as JsonObject).responses, schemas, responses);
    }
  }
  collectRefs(copy.webhooks, schemas, responses);
  for (const name of responses) if (!requests.has(name)) close(schemas[name]);
  return copy;
}
