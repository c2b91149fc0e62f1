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

/**
 * The schema nodes that apply to `value` under `schema` ($ref, allOf and the matching branches expanded).
 * When the branches were told apart by the value's JSON type alone (a nullable union, the usual case),
 * the answer holds for every value of that type and is kept (the same array: do not change it).
 */
export function applicableSchemas(document: BridgeDocument, schema: JsonValue, value: unknown): JsonObject[] {
  const index = schemaIndex(document);
  const type = jsonType(value);
  const known = index.byType(schema, type);
  if (known !== undefined) return known;
  const expansion: Expansion = { out: [], typeOnly: true };
  expand(document, index, schema, value, 0, expansion);
  if (expansion.typeOnly) index.rememberByType(schema, type, expansion.out);
  return expansion.out;
}

interface Expansion {
  out: JsonObject[];
  /** Whether only the value's JSON type chose among branches (no validation, no `const`). */
  typeOnly: boolean;
}

function expand(
  document: BridgeDocument,
  index: SchemaIndex,
  node: JsonValue,
  value: unknown,
  depth: number,
  expansion: Expansion,
): void {
  const { always, choices } = index.expansion(node);
  for (const found of always) if (!expansion.out.includes(found)) expansion.out.push(found);
  if (depth > 16) return;
  for (const branches of choices)
    for (const branch of matchingBranches(document, index, branches, value, expansion))
      expand(document, index, branch, value, depth + 1, expansion);
}

/** The JSON type of a value, as `type` names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Whether a branch's own `type` or `const` already rules the value out (no validation needed); a
 * `const` looked at marks the expansion as not chosen by type alone.
 */
function excludedAtSight(
  index: SchemaIndex,
  branch: JsonValue,
  value: unknown,
  expansion: Expansion,
): boolean {
  const resolved = index.resolve(branch);
  if (!resolved) return false;
  if ('const' in resolved && typeof value !== 'object') {
    expansion.typeOnly = false;
    if (resolved.const !== value) return true;
  }
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
  expansion: Expansion,
): readonly JsonValue[] {
  const possible = branches.filter((branch) => !excludedAtSight(index, branch, value, expansion));
  if (possible.length === 1) return possible;
  expansion.typeOnly = false;
  const matching = (possible.length > 0 ? possible : branches).filter((branch) =>
    document.ajv.compile(branch)(value),
  );
  return matching.length > 0 ? matching : branches;
}

/**
 * The nodes of member `name` under `parents` when no `oneOf` / `anyOf` leaves them to the value (the
 * same array every time: do not change it), else undefined.
 */
export function staticChildNodes(
  document: BridgeDocument,
  parents: readonly JsonObject[],
  name: string,
): readonly JsonObject[] | undefined {
  return schemaIndex(document).staticChildren(parents, name);
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

/** What a set of nodes documents of an object's members. */
export interface DocumentedMembers {
  /** A free-form object, or one allowing any member: every name is documented. */
  any: boolean;
  names: ReadonlySet<string>;
  patterns: readonly RegExp[];
}

const documentedCache = new WeakMap<readonly JsonObject[], DocumentedMembers>();

/** What `parents` document of an object's members (kept for lists from the schema index). */
export function documentedMembers(parents: readonly JsonObject[]): DocumentedMembers {
  let found = documentedCache.get(parents);
  if (found !== undefined) return found;
  const described = parents.filter((p) => isObject(p.properties) || p.additionalProperties !== undefined);
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  // A free-form object (no member list at all) documents whatever it holds.
  let any = described.length === 0;
  for (const parent of described) {
    if (isObject(parent.properties)) for (const name of Object.keys(parent.properties)) names.add(name);
    if (parent.additionalProperties === true || isObject(parent.additionalProperties)) any = true;
    if (isObject(parent.patternProperties))
      for (const source of Object.keys(parent.patternProperties)) patterns.push(new RegExp(source, 'u'));
  }
  found = { any, names, patterns };
  // Lists from the schema index come back as the same array: worth keeping; others are one-offs.
  documentedCache.set(parents, found);
  return found;
}

/**
 * Whether `name` is a member `documented` documents (named, or allowed as a map entry): what the
 * parents document is asked once per object, then this per member.
 */
export const isDocumented = (documented: DocumentedMembers, name: string) =>
  documented.any || documented.names.has(name) || documented.patterns.some((pattern) => pattern.test(name));

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

/**
 * Every object in `value` (itself included) with its schema nodes and path, depth first; scalars are
 * not visited (nor their schemas looked up). `path` is the walk's own stack: copy it to keep it.
 */
export function walkObjects(
  document: BridgeDocument,
  schema: JsonValue,
  value: unknown,
  visit: (
    object: Readonly<Record<string, unknown>>,
    schemas: readonly JsonObject[],
    path: readonly Step[],
  ) => void,
): void {
  const path: Step[] = [];
  const walk = (current: unknown, schemas: readonly JsonObject[]): void => {
    if (path.length > 64) return;
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const item: unknown = current[index];
        if (item === null || typeof item !== 'object') continue;
        path.push(index);
        walk(item, childNodes(document, schemas, index, item));
        path.pop();
      }
      return;
    }
    const object = current as Record<string, unknown>;
    visit(object, schemas, path);
    for (const name in object) {
      const member = object[name];
      if (member === null || typeof member !== 'object') continue;
      path.push(name);
      walk(member, childNodes(document, schemas, name, member));
      path.pop();
    }
  };
  if (value !== null && typeof value === 'object') walk(value, applicableSchemas(document, schema, value));
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
