/**
 * Values for the fuzz test, read from the document's schemas: one that fits a schema, and ones of the
 * wrong type for it. Deliberately small: the fuzz is about what the simulator refuses, not about
 * covering every valid shape (the conformance suite's arbitraries do that).
 */
import { isObject, type JsonObject, type JsonValue } from '../../openapi/document/json.js';
import type { Random } from '../../simulator/src/ids/seeded-ids.js';

/** Follows local `$ref`s (`#/components/schemas/X`) of the bundled document. */
export function resolve(document: JsonObject, schema: JsonValue | undefined, hops = 0): JsonObject {
  if (!isObject(schema)) return {};
  const ref = schema.$ref;
  if (typeof ref !== 'string' || hops > 8) return schema;
  let target: JsonValue | undefined = document;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return resolve(document, target, hops + 1);
}

export function typeOf(schema: JsonObject): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (isObject(schema.properties)) return 'object';
  return undefined;
}

function stringFor(schema: JsonObject, random: Random): string {
  switch (schema.format) {
    case 'date-time':
      return '2026-11-02T12:00:00.000Z';
    case 'date':
      return '2026-11-02';
    case 'uuid':
      return '2a1c7d4e-5b6f-4a80-9c1d-2e3f4a5b6c7d';
    case 'uri':
      // Never a receiver outside loopback: port 9 (discard) refuses at once.
      return 'http://127.0.0.1:9/fuzz';
    default:
      return `fz${random.int(0, 9999)}`;
  }
}

/** A value that fits `schema` in its type, enum and required members (formats loosely). */
export function validValue(
  document: JsonObject,
  raw: JsonValue | undefined,
  random: Random,
  depth = 0,
): JsonValue {
  const schema = resolve(document, raw);
  if ('const' in schema) return schema.const as JsonValue;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum);
  const branches = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (Array.isArray(branches) && branches.length > 0)
    return validValue(document, branches[0], random, depth + 1);
  if (depth > 6) return null;
  switch (typeOf(schema)) {
    case 'string':
      return stringFor(schema, random);
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : random.int(1, 50);
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum + 1 : random.int(1, 500) / 10;
    case 'boolean':
      return random.next() < 0.5;
    case 'array':
      return [validValue(document, schema.items, random, depth + 1)];
    case 'object': {
      const out: JsonObject = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [name, property] of Object.entries(properties)) {
        const required = Array.isArray(schema.required) && schema.required.includes(name);
        if (required || random.next() < 0.5) out[name] = validValue(document, property, random, depth + 1);
      }
      return out;
    }
    default:
      return null;
  }
}

/** A value of another type than `schema` asks for. */
export function wrongValue(document: JsonObject, raw: JsonValue | undefined, random: Random): JsonValue {
  const type = typeOf(resolve(document, raw));
  const others: JsonValue[] = [12345, 'not-a-number', true, [1, 'two'], { nested: { x: 1 } }, null, -1.5e308];
  const fits: Record<string, (value: JsonValue) => boolean> = {
    string: (v) => typeof v === 'string',
    integer: (v) => typeof v === 'number',
    number: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean',
    array: (v) => Array.isArray(v),
    object: (v) => isObject(v),
  };
  const candidates = others.filter((value) => !(type && fits[type]?.(value)));
  return random.pick(candidates);
}

/** `[[[...]]]` or `{"a":{"a":...}}` nested `levels` deep, as text. */
export function deepJson(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(levels)}${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}
