/**
 * fast-check arbitraries derived from the document's JSON Schemas (2020-12, the subset the document uses):
 * type (with `null` for nullable), enum, const, format, pattern, length and range bounds, items,
 * uniqueItems, required, additionalProperties false (no extra members), minProperties, oneOf, anyOf,
 * allOf, not, $ref. Nothing is hand-written per resource.
 */
import fc from 'fast-check';
import type { DocumentAjv } from '../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import { formatArbitrary } from './format-arbitraries.js';

type Arb = fc.Arbitrary<JsonValue>;

export interface SchemaArbitraryOptions {
  /** Resolves `$ref`s. */
  resolve: (value: JsonValue | undefined) => JsonValue | undefined;
  /** When given, `oneOf` values are kept only when they match exactly one branch, `not` is honoured. */
  ajv?: DocumentAjv;
  /** Largest arrays generated when the schema sets no smaller `maxItems` (requests stay small). */
  maxItems?: number;
}

export interface SchemaArbitraries {
  /** The arbitrary of any schema fragment of the document (cached by identity). */
  of(schema: JsonValue): Arb;
}

const DEFAULT_MAX_ITEMS = 3;
const NUMBER_BOUND = 1_000_000;
const SCALAR_TYPES = ['string', 'integer', 'number', 'boolean'];

/** Applies `allOf` and `$ref` siblings: the members' keywords together, `properties` and `required` united. */
function mergeSchemas(parts: JsonObject[]): JsonObject {
  const merged: JsonObject = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isObject(value)) {
        merged.properties = { ...(isObject(merged.properties) ? merged.properties : {}), ...value };
      } else if (key === 'required' && Array.isArray(value)) {
        merged.required = [
          ...new Set([...(Array.isArray(merged.required) ? merged.required : []), ...value]),
        ];
      } else if (key !== 'allOf' && key !== '$ref') {
        merged[key] = value;
      }
    }
  }
  return merged;
}

function numberArbitrary(schema: JsonObject, integer: boolean): Arb {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const exMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  const low = min ?? exMin ?? Math.min(-NUMBER_BOUND, max ?? exMax ?? 0);
  const high = max ?? exMax ?? Math.max(NUMBER_BOUND, low + NUMBER_BOUND);
  if (integer) {
    const from = Math.ceil(exMin !== undefined && min === undefined ? exMin + 1 : low);
    const to = Math.floor(exMax !== undefined && max === undefined ? exMax - 1 : high);
    return fc.integer({ min: from, max: to });
  }
  return fc.double({
    min: low,
    max: high,
    minExcluded: min === undefined && exMin !== undefined,
    maxExcluded: max === undefined && exMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function stringArbitrary(schema: JsonObject): Arb {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const fitsLength = (text: string) =>
    [...text].length >= minLength && [...text].length <= (maxLength ?? Infinity);
  const format = typeof schema.format === 'string' ? formatArbitrary(schema.format) : undefined;
  if (format) return format.filter(fitsLength);
  if (typeof schema.pattern === 'string') {
    const matching = fc.stringMatching(new RegExp(schema.pattern, 'u'), maxLength ? { maxLength } : {});
    return matching.filter(fitsLength);
  }
  return fc.string({ minLength, maxLength: maxLength ?? Math.max(minLength, 16) });
}

export function createSchemaArbitraries(options: SchemaArbitraryOptions): SchemaArbitraries {
  const cache = new WeakMap<object, Arb>();
  const maxItemsCap = options.maxItems ?? DEFAULT_MAX_ITEMS;
  const building = new Set<object>();

  /** `$ref` and `allOf` folded into one schema object. */
  function flatten(schema: JsonObject): JsonObject {
    const parts: JsonObject[] = [];
    if (typeof schema.$ref === 'string') {
      const target = options.resolve({ $ref: schema.$ref });
      if (isObject(target)) parts.push(flatten(target));
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf) {
        const resolved = options.resolve(member);
        if (isObject(resolved)) parts.push(flatten(resolved));
      }
    }
    return parts.length === 0 ? schema : mergeSchemas([...parts, schema]);
  }

  function arrayArbitrary(schema: JsonObject): Arb {
    const items = schema.items === undefined ? { type: 'string' } : schema.items;
    const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const declaredMax = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
    const maxLength = Math.max(minLength, Math.min(declaredMax, maxItemsCap));
    const item = of(items);
    if (schema.uniqueItems === true) {
      return fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) });
    }
    return fc.array(item, { minLength, maxLength });
  }

  function objectArbitrary(schema: JsonObject): Arb {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    const model: Record<string, Arb> = {};
    for (const [name, child] of Object.entries(properties)) model[name] = of(child);
    // A required member without a declared schema still has to be present.
    for (const name of required) model[name] ??= fc.string({ minLength: 1, maxLength: 8 });
    const record = fc.record(model, { requiredKeys: required }) as Arb;
    const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    return minProperties === 0
      ? record
      : record.filter((value) => isObject(value) && Object.keys(value).length >= minProperties);
  }

  function byType(type: string, schema: JsonObject): Arb {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return numberArbitrary(schema, true);
      case 'number':
        return numberArbitrary(schema, false);
      case 'string':
        return stringArbitrary(schema);
      case 'array':
        return arrayArbitrary(schema);
      default:
        return objectArbitrary(schema);
    }
  }

  function inferTypes(schema: JsonObject): string[] {
    if (typeof schema.type === 'string') return [schema.type];
    if (Array.isArray(schema.type)) return schema.type.map(String);
    if (isObject(schema.properties) || Array.isArray(schema.required)) return ['object'];
    if (schema.items !== undefined) return ['array'];
    if (typeof schema.pattern === 'string' || typeof schema.format === 'string') return ['string'];
    return SCALAR_TYPES;
  }

  function branches(schema: JsonObject, keyword: 'oneOf' | 'anyOf'): Arb {
    const { [keyword]: members, ...siblings } = schema;
    const arbs = (members as JsonValue[]).map((member) => {
      const resolved = options.resolve(member);
      return of(mergeSchemas([siblings, flatten(isObject(resolved) ? resolved : {})]));
    });
    const union = fc.oneof(...arbs);
    if (keyword === 'anyOf' || !options.ajv) return union;
    // oneOf: a value of one branch may match another too; keep the ones that match exactly one.
    const validate = options.ajv.compile(schema);
    return union.filter((value) => validate(value) === true);
  }

  function build(raw: JsonObject): Arb {
    const schema = flatten(raw);
    if ('const' in schema) return fc.constant(schema.const ?? null);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    let arb: Arb;
    if (Array.isArray(schema.oneOf)) arb = branches(schema, 'oneOf');
    else if (Array.isArray(schema.anyOf)) arb = branches(schema, 'anyOf');
    else {
      const arbs = inferTypes(schema).map((type) => byType(type, schema));
      arb = arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
    }
    if (schema.not !== undefined && options.ajv) {
      // `not` holds in the context of its schema (a lone `required` is not a strict schema for Ajv).
      const validate = options.ajv.compile(raw);
      arb = arb.filter((value) => validate(value) === true);
    }
    return arb;
  }

  function of(schema: JsonValue): Arb {
    if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) {
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
    }
    if (!isObject(schema)) throw new Error(`Not a schema: ${JSON.stringify(schema)}`);
    const cached = cache.get(schema);
    if (cached) return cached;
    if (building.has(schema)) throw new Error('Recursive schemas are not supported by the suite');
    building.add(schema);
    try {
      const arb = build(schema);
      cache.set(schema, arb);
      return arb;
    } finally {
      building.delete(schema);
    }
  }

  return { of };
}
