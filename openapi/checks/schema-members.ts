/**
 * Flattens a response or request schema into its members, by path (`results[].account.category`), with
 * what each member accepts: types, nullability, requiredness, formats, patterns, enums (a `const` is a
 * one-value enum), bounds and closedness. The provider-facts extraction and the strictness check both use
 * it, so the provider's facts and our document are read the same way.
 *
 * Composition: `allOf` parts all hold (their constraints add up); `oneOf`/`anyOf` branches are
 * alternatives, so a member keeps only what every branch that declares it says, and is required only
 * where every branch requires it. That is the loosest reading of each member, the one a strictness
 * comparison needs (a value is refused only when no branch accepts it).
 */
import { isObject, type JsonObject, type JsonValue } from '../document/json.js';
import type { MemberFacts, MemberMap } from './member-facts.js';
import { allMaps, eitherMaps, sorted } from './member-facts-merge.js';

export type { MemberFacts, MemberMap };

/** Follows `$ref`s; returns the schema and the name of the last component reached (or undefined). */
export type Deref = (schema: JsonValue | undefined) => { schema: JsonObject; ref?: string };

export interface FlattenOptions {
  deref: Deref;
  /** Depth past which nested members are not listed. */
  maxDepth?: number;
  /** Branches of `oneOf`/`anyOf` to leave out, by component name (another country's variant). */
  skipBranch?: (ref: string) => boolean;
  /** OpenAPI 3.0: `nullable: true` allows null. */
  openapi30?: boolean;
  /** Reads `format: string` without a `type` as `type: string` (a slip of the provider's schema). */
  formatAsType?: boolean;
}

const BOUNDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
];
const CONSTRAINING = [
  'not',
  'if',
  'uniqueItems',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'patternProperties',
  'prefixItems',
  'contains',
];

/** Builds a `Deref` over a components map whose `$ref`s start with `prefix`. */
export function componentDeref(components: JsonObject, prefix: string): Deref {
  return (input) => {
    let current: JsonValue | undefined = input;
    let ref: string | undefined;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 50; hops++) {
      ref = current.$ref.startsWith(prefix) ? current.$ref.slice(prefix.length) : current.$ref;
      current = components[ref];
    }
    return { schema: isObject(current) ? current : {}, ...(ref !== undefined && { ref }) };
  };
}

const jsonType = (value: JsonValue) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value;

function typesOf(schema: JsonObject): { types?: string[]; acceptsNull: boolean } {
  if (schema.type === undefined) {
    // No `type`: an enum or const still says which types its values have.
    const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
    if (values === undefined) return { acceptsNull: true };
    const types = values.map((value) => jsonType(value as JsonValue));
    return { types: sorted(types.filter((t) => t !== 'null')), acceptsNull: types.includes('null') };
  }
  const raw = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
  return { types: sorted(raw.filter((t) => t !== 'null')), acceptsNull: raw.includes('null') };
}

/** The facts a schema object states about itself (not its members). */
function ownFacts(
  schema: JsonObject,
  options: Pick<FlattenOptions, 'openapi30' | 'formatAsType'>,
): MemberFacts {
  const openapi30 = options.openapi30 === true;
  const slip = options.formatAsType === true && schema.type === undefined && schema.format === 'string';
  const { types, acceptsNull } = typesOf(slip ? { ...schema, type: 'string' } : schema);
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  const nullable30 = openapi30 && schema.nullable === true;
  const nullable = nullable30 || (acceptsNull && (values === undefined || values.includes(null)));
  const bounds = Object.fromEntries(
    BOUNDS.filter((k) => typeof schema[k] === 'number').map((k) => [k, schema[k] as number]),
  );
  const constraints = CONSTRAINING.filter((k) => schema[k] !== undefined && schema[k] !== false);
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false)
    constraints.push('closed');
  else if (isObject(schema.additionalProperties)) constraints.push('additionalProperties');
  return {
    ...(types !== undefined && { type: types }),
    nullable,
    required: false,
    ...(typeof schema.format === 'string' && !slip && { format: [schema.format] }),
    ...(typeof schema.pattern === 'string' && { pattern: [schema.pattern] }),
    ...(values !== undefined && { enum: values.filter((v) => v !== null) }),
    ...(Object.keys(bounds).length > 0 && { bounds }),
    ...(constraints.length > 0 && { constraints }),
  };
}

/** Joins a member path under a parent name: `a` + `` = `a`, `a` + `[].b` = `a[].b`, `a` + `b` = `a.b`. */
function under(parent: string, key: string): string {
  if (key === '') return parent;
  if (key.startsWith('[]') || parent === '') return `${parent}${key}`;
  return `${parent}.${key}`;
}

/** Every member of `root` by path (`''` is the schema itself), read as described above. */
export function flattenSchema(root: JsonValue | undefined, options: FlattenOptions): MemberMap {
  const maxDepth = options.maxDepth ?? 8;
  const walk = (input: JsonValue | undefined, depth: number, seen: ReadonlySet<string>): MemberMap => {
    const { schema, ref } = options.deref(input);
    if (ref !== undefined && seen.has(ref)) return new Map([['', ownFacts({}, {})]]);
    const inside = ref === undefined ? seen : new Set([...seen, ref]);
    let members: MemberMap = new Map([['', ownFacts(schema, options)]]);
    if (depth < maxDepth) members = allMaps(members, childMembers(schema, depth, inside));
    for (const part of Array.isArray(schema.allOf) ? schema.allOf : [])
      members = allMaps(members, walk(part, depth, inside));
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = (Array.isArray(schema[keyword]) ? schema[keyword] : []).filter((branch) => {
        const name = options.deref(branch).ref;
        return name === undefined || !options.skipBranch?.(name);
      });
      if (branches.length > 0)
        members = allMaps(members, eitherMaps(branches.map((b) => walk(b, depth, inside))));
    }
    return members;
  };
  const childMembers = (schema: JsonObject, depth: number, seen: ReadonlySet<string>): MemberMap => {
    const out: MemberMap = new Map();
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [name, property] of Object.entries(properties)) {
      for (const [key, facts] of walk(property, depth + 1, seen))
        out.set(under(name, key), key === '' ? { ...facts, required: required.has(name) } : facts);
    }
    // A required name the schema does not declare is still required, of any type.
    for (const name of required)
      if (!(name in properties)) out.set(name, { nullable: true, required: true, declared: false });
    if (schema.items !== undefined && !Array.isArray(schema.items)) {
      for (const [key, facts] of walk(schema.items, depth + 1, seen)) out.set(under('[]', key), facts);
    }
    return out;
  };
  return walk(root, 0, new Set());
}
