/**
 * Compiles one example record and its schema, once, into a generator: a tree of small closures that
 * builds a variation of the example from a per-record state. Every variation keeps the value valid by
 * construction (a uuid, a shifted date, a number inside the schema's bounds, a member of the enum);
 * anything the compiler cannot vary safely keeps the example's value, which the document checks.
 */

import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { CompileEnv, Gen, Site, VariantEnv } from './generator-types.js';
import { resolveSchema } from './record-templates.js';
import { compileNumber, compileString, constant, isEnumerated, typesOf } from './scalar-fields.js';

/** Compiles a record schema and one example record into a generator of varied records. */
export function compileRecord(schema: JsonObject, example: JsonObject, env: CompileEnv): Gen {
  const variant: VariantEnv = { ...env, exampleCollectedMs: Date.parse(String(example.collected_at)) };
  return compileValue(schema, example, variant, { name: '', depth: 0, parent: null });
}

function compileValue(raw: JsonValue | undefined, example: JsonValue, env: VariantEnv, site: Site): Gen {
  const schema = resolveSchema(raw, env.definitions);
  if (example === null || schema === undefined || env.keep.has(site.name)) return constant(example);
  const own = site.depth === 1 ? compileOwnField(schema, example, env, site) : undefined;
  if (own !== undefined) return own;
  // A nested part read with the record (card detail, invoice line) was read when the record was.
  if (site.name === 'collected_at' && typeof example === 'string' && schema.format === 'date-time')
    return (s) => s.collectedAt;
  if (schema.oneOf !== undefined || schema.anyOf !== undefined) {
    const branch = branchOf(schema, example, env);
    return branch === undefined ? constant(example) : compileValue(branch, example, env, site);
  }
  if (schema.allOf !== undefined || schema.not !== undefined || schema.if !== undefined)
    return constant(example);
  if (Array.isArray(example)) {
    const gens = example.map((item) =>
      compileValue(schema.items, item, env, { name: site.name, depth: site.depth + 1, parent: null }),
    );
    return (s) => gens.map((gen) => gen(s));
  }
  if (isObject(example)) return compileObject(schema, example, env, site);
  if (typeof example === 'string') return compileString(schema, example, env, site);
  if (typeof example === 'number') return compileNumber(schema, example, env, site);
  return constant(example);
}

/** The record's own top-level fields: id, link, times, references, institution, currency. */
function compileOwnField(
  schema: JsonObject,
  example: JsonValue,
  env: VariantEnv,
  site: Site,
): Gen | undefined {
  const name = site.name;
  if (name === 'id' && schema.format === 'uuid') return (s) => s.ids.uuid();
  if (name === 'link' && schema.format === 'uuid') return (s) => s.linkId;
  if ((name === 'collected_at' || name === 'created_at') && schema.format === 'date-time') {
    return (s) => s.collectedAt;
  }
  if (env.references.has(name) && schema.format === 'uuid') return (s) => s.reference(name);
  if (env.references.has(name) && isObject(example)) {
    // A nested record (a transaction's `account`): the stored one, else the example under the chosen id.
    const fallback = constant(example);
    return (s) => {
      const id = s.reference(name);
      return s.referencedRecord(name, id) ?? { ...(fallback(s) as JsonObject), id };
    };
  }
  if (name === 'currency' && typeof schema.pattern === 'string' && !isEnumerated(schema)) {
    return (s) => s.currency ?? example;
  }
  if (name === 'institution' && typeof example === 'string' && !isEnumerated(schema))
    return (s) => s.institution;
  if (name === 'institution' && isObject(example) && typeof example.name === 'string') {
    const rest = compileObject(schema, example, env, site);
    return (s) => {
      const value = rest(s) as JsonObject;
      value.name = s.institution;
      return value;
    };
  }
  return undefined;
}

function compileObject(schema: JsonObject, example: JsonObject, env: VariantEnv, site: Site): Gen {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const keys = Object.keys(example);
  const gens = keys.map((key) =>
    compileValue(properties[key], example[key] ?? null, env, {
      name: key,
      depth: site.depth + 1,
      parent: example,
    }),
  );
  // Spreading a fixed shape gives each record its final layout at once (no growing property store).
  const shape: JsonObject = Object.fromEntries(keys.map((key) => [key, null]));
  return (s) => {
    const out: JsonObject = { ...shape };
    for (let i = 0; i < keys.length; i++) out[keys[i] as string] = (gens[i] as Gen)(s);
    return out;
  };
}

/**
 * What a request filter may set on a record built from this example: per top-level field, the values
 * its schema (in the example's `oneOf` branch) allows, or null when it has no enum or const.
 */
export function allowedTopLevelValues(
  schema: JsonObject,
  example: JsonObject,
  env: CompileEnv,
): Map<string, readonly JsonValue[] | null> {
  const resolved = resolveSchema(schema, env.definitions);
  const record =
    resolved?.oneOf !== undefined || resolved?.anyOf !== undefined
      ? branchOf(resolved, example, env)
      : resolved;
  const properties = isObject(record?.properties) ? record.properties : {};
  const allowed = new Map<string, readonly JsonValue[] | null>();
  for (const key of Object.keys(example)) {
    const property = resolveSchema(properties[key], env.definitions);
    if (property?.const !== undefined) allowed.set(key, [property.const]);
    else allowed.set(key, Array.isArray(property?.enum) ? property.enum : null);
  }
  return allowed;
}

/** The `oneOf`/`anyOf` branch the example is an instance of. */
function branchOf(schema: JsonObject, example: JsonValue, env: CompileEnv): JsonObject | undefined {
  for (const raw of [...asArray(schema.oneOf), ...asArray(schema.anyOf)]) {
    const branch = resolveSchema(raw, env.definitions);
    if (branch !== undefined && fits(branch, example, env)) return branch;
  }
  return undefined;
}

/** Whether an example value is the one a `oneOf`/`anyOf` branch describes (types, consts, keys). */
function fits(schema: JsonObject, value: JsonValue, env: CompileEnv): boolean {
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => hasType(type, value))) return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  if (Array.isArray(schema.enum) && !isObject(value) && !schema.enum.includes(value)) return false;
  if (!isObject(value) || !isObject(schema.properties)) return true;
  const properties = schema.properties;
  if (!asArray(schema.required).every((key) => typeof key === 'string' && key in value)) return false;
  if (schema.additionalProperties === false && !Object.keys(value).every((key) => key in properties))
    return false;
  return Object.entries(value).every(([key, child]) => {
    const property = resolveSchema(properties[key], env.definitions);
    return property === undefined || Array.isArray(child) || fits(property, child, env);
  });
}

function hasType(type: string, value: JsonValue): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}
