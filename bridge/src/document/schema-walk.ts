/**
 * Walks a JSON value beside the schema that describes it, so each member is seen with the schema
 * nodes that apply to it: what tells a member the document does not name, a personal member
 * (`x-personal`), a deprecated one. `$ref` and `allOf` apply whole; of `oneOf` / `anyOf` the branches
 * the value validates against apply, or every branch when none does (the safe reading for both
 * uses: fewer members called undocumented, more members redacted).
 */
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import type { BridgeDocument } from './bridge-document.js';
import { type SchemaIndex, schemaIndex } from './schema-index.js';

/** A step into a value: a member name or an array index. */
export type Step = string | number;

/** The schema nodes that apply to `value` under `schema` ($ref, allOf and the matching branches expanded). */
export function applicableSchemas(document: BridgeDocument, schema: JsonValue, value: unknown): JsonObject[] {
  const index = schemaIndex(document);
  const out: JsonObject[] = [];
  const visit = (node: JsonValue, depth: number) => {
    const { always, choices } = index.expansion(node);
    for (const found of always) if (!out.includes(found)) out.push(found);
    if (depth > 16) return;
    for (const branches of choices)
      for (const branch of matchingBranches(document, index, branches, value)) visit(branch, depth + 1);
  };
  visit(schema, 0);
  return out;
}

/** The JSON type of a value, as `type` names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a branch's own `type` or `const` already rules the value out (no validation needed). */
function excludedAtSight(index: SchemaIndex, branch: JsonValue, value: unknown): boolean {
  const resolved = index.resolve(branch);
  if (!resolved) return false;
  if ('const' in resolved && resolved.const !== value && typeof value !== 'object') return true;
  const type = resolved.type;
  if (type === undefined) return false;
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonType(value);
  return !types.includes(actual) && !(actual === 'integer' && types.includes('number'));
}

/**
 * The branches that apply: those the value's type leaves, and of several, those it validates against
 * (a nullable union, the usual case, needs no validation at all); all when none does.
 */
function matchingBranches(
  document: BridgeDocument,
  index: SchemaIndex,
  branches: readonly JsonValue[],
  value: unknown,
): readonly JsonValue[] {
  const possible = branches.filter((branch) => !excludedAtSight(index, branch, value));
  if (possible.length === 1) return possible;
  const matching = (possible.length > 0 ? possible : branches).filter((branch) =>
    document.ajv.compile(branch)(value),
  );
  return matching.length > 0 ? matching : branches;
}

/** The schema nodes that apply to one child (a member or an item) of a value with nodes `parents`. */
export function childNodes(
  document: BridgeDocument,
  parents: readonly JsonObject[],
  step: Step,
  child: unknown,
): JsonObject[] {
  const index = schemaIndex(document);
  const name = typeof step === 'number' ? '[]' : step;
  const fixed = index.staticChildren(parents, name);
  if (fixed !== undefined) return fixed as JsonObject[];
  const schemas = index.children(parents, name);
  if (schemas.length === 1) return applicableSchemas(document, schemas[0]!, child);
  return schemas.flatMap((node) => applicableSchemas(document, node, child));
}

/** Whether `name` is a member the parent's nodes document (named, or allowed as a map entry). */
export function documentsMember(parents: readonly JsonObject[], name: string): boolean {
  const described = parents.filter((p) => isObject(p.properties) || p.additionalProperties !== undefined);
  // A free-form object (no member list at all) documents whatever it holds.
  if (described.length === 0) return true;
  return described.some(
    (p) =>
      (isObject(p.properties) && name in p.properties) ||
      p.additionalProperties === true ||
      isObject(p.additionalProperties) ||
      (isObject(p.patternProperties) &&
        Object.keys(p.patternProperties).some((re) => new RegExp(re, 'u').test(name))),
  );
}

export type Visitor = (
  value: unknown,
  schemas: readonly JsonObject[],
  path: readonly Step[],
) => 'skip' | undefined;

/** Calls `visit` on `value` and every member and item inside it, with their schema nodes (depth first). */
export function walkWithSchema(
  document: BridgeDocument,
  schema: JsonValue,
  value: unknown,
  visit: Visitor,
): void {
  const walk = (current: unknown, schemas: JsonObject[], path: Step[]) => {
    if (visit(current, schemas, path) === 'skip' || path.length > 64) return;
    const entries: [Step, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [index, item])
      : isObject(current)
        ? Object.entries(current)
        : [];
    for (const [step, child] of entries)
      walk(child, childNodes(document, schemas, step, child), [...path, step]);
  };
  walk(value, applicableSchemas(document, schema, value), []);
}

/** The schema nodes at a JSON pointer (`/results/0/name`) of `value`. */
export function schemasAt(
  document: BridgeDocument,
  schema: JsonValue,
  value: unknown,
  pointer: string,
): JsonObject[] {
  const steps = pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  let current: unknown = value;
  let nodes = applicableSchemas(document, schema, value);
  for (const raw of steps) {
    const step: Step = Array.isArray(current) ? Number(raw) : raw;
    const child = Array.isArray(current)
      ? current[step as number]
      : isObject(current)
        ? (current as JsonObject)[raw]
        : undefined;
    nodes = childNodes(document, nodes, step, child);
    current = child;
  }
  return nodes;
}

/** `a.b[].c`: a member path with array indexes folded, as reports group members. */
export function memberPath(path: readonly Step[]): string {
  let out = '';
  for (const step of path) out += typeof step === 'number' ? '[]' : out === '' ? step : `.${step}`;
  return out;
}
