/**
 * RESP-REQUIRED-NULLABLE, read off a schema: every required member is present, and `null` appears only
 * where the schema allows it. Other schema breaches are the SCHEMA rows' business, so this walker looks
 * at nothing else. `oneOf`/`anyOf`: the value is fine when one branch has no problem.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';

type Resolve = (value: JsonValue | undefined) => JsonValue | undefined;

function flatten(schema: JsonValue | undefined, resolve: Resolve): JsonObject {
  const resolved = resolve(schema);
  if (!isObject(resolved)) return {};
  const members = Array.isArray(resolved.allOf)
    ? resolved.allOf.map((member) => flatten(member, resolve))
    : [];
  const merged: JsonObject = { ...resolved };
  for (const member of members) {
    merged.properties = {
      ...(isObject(member.properties) ? member.properties : {}),
      ...(isObject(merged.properties) ? merged.properties : {}),
    };
    merged.required = [
      ...(Array.isArray(merged.required) ? merged.required : []),
      ...(Array.isArray(member.required) ? member.required : []),
    ];
    if (merged.type === undefined && member.type !== undefined) merged.type = member.type;
  }
  return merged;
}

function allowsNull(schema: JsonObject): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if ('const' in schema) return schema.const === null;
  return schema.type === undefined && schema.oneOf === undefined && schema.anyOf === undefined;
}

/** What a walk looked at: the objects it held to a schema that names members (the rule's evidence). */
export interface WalkEvidence {
  objects: number;
}

/** Problems of `value` against `schema` at `path` (JSON pointer); `seen` counts the objects checked. */
export function requiredNullableProblems(
  schema: JsonValue | undefined,
  value: JsonValue,
  resolve: Resolve,
  path = '',
  seen: WalkEvidence = { objects: 0 },
): string[] {
  const flat = flatten(schema, resolve);
  const branches = Array.isArray(flat.oneOf)
    ? flat.oneOf
    : Array.isArray(flat.anyOf)
      ? flat.anyOf
      : undefined;
  if (branches) {
    const { oneOf: _one, anyOf: _any, ...siblings } = flat;
    const results = branches.map((branch) =>
      requiredNullableProblems({ ...siblings, allOf: [branch] }, value, resolve, path, seen),
    );
    return (
      results.find((problems) => problems.length === 0) ??
      results.sort((a, b) => a.length - b.length)[0] ??
      []
    );
  }
  if (value === null)
    return allowsNull(flat) ? [] : [`${path || '/'} is null, which its schema does not allow`];
  if (Array.isArray(value)) {
    return flat.items === undefined
      ? []
      : value.flatMap((item, index) =>
          requiredNullableProblems(flat.items, item, resolve, `${path}/${index}`, seen),
        );
  }
  if (!isObject(value)) return [];
  const properties = isObject(flat.properties) ? flat.properties : {};
  const required = Array.isArray(flat.required) ? flat.required.map(String) : [];
  if (required.length > 0 || Object.keys(properties).length > 0) seen.objects += 1;
  const missing = required
    .filter((name) => !(name in value))
    .map((name) => `${path}/${name} is required but absent`);
  const nested = Object.entries(value).flatMap(([name, child]) =>
    name in properties
      ? requiredNullableProblems(properties[name], child, resolve, `${path}/${name}`, seen)
      : [],
  );
  return [...missing, ...nested];
}
