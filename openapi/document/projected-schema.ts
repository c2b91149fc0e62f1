/**
 * The response schema of a request shaped by `fields` / `omit` (the provider's parameters, declared on
 * the operations that have them). The document's record schemas describe the whole record, the answer
 * without these parameters; a shaped answer holds the kept members only. So a shaped answer is checked
 * against the same schema with each record's `required` limited to the kept members, and with its member
 * names limited to them: the members kept are still checked in full, and nothing dropped may appear.
 * Records are where the simulator shapes them: the answer itself, the items of an array, or the
 * `results` of a page.
 */

import { resolveRef } from './document-walk.js';
import { isObject, type JsonObject, type JsonValue } from './json.js';

/** The statuses whose bodies are records, which `fields` / `omit` shape (a 202 acknowledges, errors are errors). */
export const SHAPED_STATUSES: ReadonlySet<number> = new Set([200, 201]);

export interface Shaping {
  keep?: ReadonlySet<string>;
  drop?: ReadonlySet<string>;
}

/** The `fields` / `omit` of a query string, or undefined when it has neither. */
export function shapingOf(query: URLSearchParams): Shaping | undefined {
  // A list that names nothing (`fields=`) shapes nothing, as if absent.
  const names = (raw: string | null) => {
    const listed = raw === null ? [] : raw.split(',').filter((name) => name !== '');
    return listed.length === 0 ? undefined : new Set(listed);
  };
  const shaping = { keep: names(query.get('fields')), drop: names(query.get('omit')) };
  return shaping.keep === undefined && shaping.drop === undefined ? undefined : shaping;
}

function projectRecord(document: JsonObject, raw: JsonValue, shaping: Shaping): JsonValue {
  const schema = resolveRef(document, raw);
  if (!isObject(schema)) return raw;
  const branches = (schema.oneOf ?? schema.anyOf) as JsonValue[] | undefined;
  // Shaped records may fit several branches (`fields=id`): any branch will do, not exactly one.
  if (Array.isArray(branches)) return { anyOf: branches.map((b) => projectRecord(document, b, shaping)) };
  if (Array.isArray(schema.allOf))
    return { allOf: schema.allOf.map((b) => projectRecord(document, b as JsonValue, shaping)) };
  const kept = (name: string) =>
    (shaping.keep === undefined || shaping.keep.has(name)) && !shaping.drop?.has(name);
  const required = Array.isArray(schema.required) ? schema.required.map(String).filter(kept) : [];
  const names: JsonObject = {
    ...(shaping.keep && { enum: [...shaping.keep] }),
    ...(shaping.drop && { not: { enum: [...shaping.drop] } }),
  };
  return { ...schema, required, propertyNames: names };
}

/** `schema` (a response body's) with its records shaped as `shaping` says. */
export function projectedSchema(document: JsonObject, schema: JsonValue, shaping: Shaping): JsonValue {
  const root = resolveRef(document, schema);
  if (!isObject(root)) return schema;
  if (root.type === 'array' && root.items !== undefined)
    return { ...root, items: projectRecord(document, root.items, shaping) };
  const properties = isObject(root.properties) ? root.properties : {};
  const results = resolveRef(document, properties.results);
  if (isObject(results) && results.type === 'array' && results.items !== undefined) {
    const shapedResults = { ...results, items: projectRecord(document, results.items, shaping) };
    return { ...root, properties: { ...properties, results: shapedResults } };
  }
  return projectRecord(document, root, shaping);
}
