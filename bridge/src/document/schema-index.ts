/**
 * What the walks over a body ask of the document's schemas many times per answer (a page of 100
 * transactions nests 100 accounts), answered once per schema node and kept: the node a `$ref`
 * resolves to, the nodes a schema always expands to (`$ref`, `allOf`) with the `oneOf` / `anyOf`
 * choices left to the value, and the schema nodes of a member or an item under a set of nodes.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import type { BridgeDocument } from './bridge-document.js';

interface Expansion {
  /** The nodes that apply whatever the value. */
  always: JsonObject[];
  /** The `oneOf` / `anyOf` lists among them: the value picks their branches. */
  choices: (readonly JsonValue[])[];
}

export interface SchemaIndex {
  resolve(node: JsonValue | undefined): JsonObject | undefined;
  expansion(node: JsonValue | undefined): Expansion;
  /** The unexpanded schemas of member `name` (or of an item, `[]`) under `parents`. */
  children(parents: readonly JsonObject[], name: string): readonly JsonValue[];
  /**
   * The expanded nodes of member `name` under `parents` when no `oneOf` / `anyOf` is among them (the
   * same array every time: do not change it), else undefined (the value must pick the branches).
   */
  staticChildren(parents: readonly JsonObject[], name: string): readonly JsonObject[] | undefined;
  /** The nodes kept for a value of JSON `type` under `schema`, when its branches are told apart by type. */
  byType(schema: JsonValue, type: string): JsonObject[] | undefined;
  rememberByType(schema: JsonValue, type: string, nodes: JsonObject[]): void;
}

const indexes = new WeakMap<BridgeDocument, SchemaIndex>();

/** Member names answered per list object; past them, the shared caches answer (a map's ids). */
const MAX_NAMES_PER_LIST = 512;

export function schemaIndex(document: BridgeDocument): SchemaIndex {
  let index = indexes.get(document);
  if (!index) {
    index = createSchemaIndex(document);
    indexes.set(document, index);
  }
  return index;
}

function createSchemaIndex(document: BridgeDocument): SchemaIndex {
  const resolvedCache = new WeakMap<object, JsonObject | null>();
  const expansions = new WeakMap<object, Expansion>();
  const ids = new WeakMap<object, number>();
  const childrenCache = new Map<string, readonly JsonValue[]>();
  const staticCache = new Map<string, readonly JsonObject[] | null>();
  const listKeys = new WeakMap<readonly JsonObject[], string>();
  let nextId = 0;
  const idOf = (node: object) => {
    let id = ids.get(node);
    if (id === undefined) {
      id = nextId++;
      ids.set(node, id);
    }
    return id;
  };
  const resolve = (node: JsonValue | undefined): JsonObject | undefined => {
    if (!isObject(node)) return undefined;
    let found = resolvedCache.get(node);
    if (found === undefined) {
      const resolved = document.resolve(node);
      found = isObject(resolved) ? resolved : null;
      resolvedCache.set(node, found);
    }
    return found ?? undefined;
  };
  const expansion = (node: JsonValue | undefined): Expansion => {
    const start = resolve(node);
    if (!start) return { always: [], choices: [] };
    let found = expansions.get(start);
    if (found) return found;
    found = { always: [], choices: [] };
    const visit = (current: JsonObject, depth: number) => {
      if (depth > 32 || found!.always.includes(current)) return;
      found!.always.push(current);
      if (Array.isArray(current.allOf))
        for (const part of current.allOf) visit(resolve(part) ?? {}, depth + 1);
      const branches = current.oneOf ?? current.anyOf;
      if (Array.isArray(branches)) found!.choices.push(branches);
    };
    visit(start, 0);
    expansions.set(start, found);
    return found;
  };
  const keyOfList = (parents: readonly JsonObject[]) => {
    let key = listKeys.get(parents);
    if (key === undefined) {
      key = parents.map(idOf).join(',');
      listKeys.set(parents, key);
    }
    return key;
  };
  /**
   * The key of member `name` under `parents` in the caches shared by equal lists. A name no parent
   * declares gets what every such name gets (`additionalProperties`, or nothing), under one key: the
   * caches stay as small as the document, whatever names a body holds (a map keyed by ids).
   */
  const memberKey = (parents: readonly JsonObject[], name: string) => {
    const declared =
      name === '[]' ||
      parents.some((parent) => isObject(parent.properties) && Object.hasOwn(parent.properties, name));
    return declared ? `${keyOfList(parents)}|${name}` : `${keyOfList(parents)}#`;
  };
  const childrenOf = (parents: readonly JsonObject[], name: string): readonly JsonValue[] => {
    const out: JsonValue[] = [];
    for (const parent of parents) {
      if (name === '[]') {
        if (parent.items !== undefined && typeof parent.items !== 'boolean') out.push(parent.items);
        continue;
      }
      const named =
        isObject(parent.properties) && Object.hasOwn(parent.properties, name)
          ? parent.properties[name]
          : undefined;
      if (named !== undefined) out.push(named);
      else if (isObject(parent.additionalProperties)) out.push(parent.additionalProperties);
    }
    return out;
  };
  /**
   * The answers for one list object (a cached list comes back as the same array), by member name: no
   * key string to build and hash for each member of each record. Up to MAX_NAMES_PER_LIST names each.
   */
  interface ListAnswers {
    children: Map<string, readonly JsonValue[]>;
    static: Map<string, readonly JsonObject[] | null>;
  }
  const byList = new WeakMap<readonly JsonObject[], ListAnswers>();
  const answersOf = (parents: readonly JsonObject[]) => {
    let answers = byList.get(parents);
    if (answers === undefined) {
      answers = { children: new Map(), static: new Map() };
      byList.set(parents, answers);
    }
    return answers;
  };
  const children = (parents: readonly JsonObject[], name: string): readonly JsonValue[] => {
    const answers = answersOf(parents).children;
    let found = answers.get(name);
    if (found !== undefined) return found;
    const key = memberKey(parents, name);
    found = childrenCache.get(key);
    if (found === undefined) {
      found = childrenOf(parents, name);
      childrenCache.set(key, found);
    }
    if (answers.size < MAX_NAMES_PER_LIST) answers.set(name, found);
    return found;
  };
  const staticChildren = (
    parents: readonly JsonObject[],
    name: string,
  ): readonly JsonObject[] | undefined => {
    const answers = answersOf(parents).static;
    let found = answers.get(name);
    if (found === undefined) {
      const key = memberKey(parents, name);
      found = staticCache.get(key);
      if (found === undefined) {
        const expansions = children(parents, name).map(expansion);
        found = expansions.some((e) => e.choices.length > 0)
          ? null
          : [...new Set(expansions.flatMap((e) => e.always))];
        staticCache.set(key, found);
      }
      if (answers.size < MAX_NAMES_PER_LIST) answers.set(name, found);
    }
    return found ?? undefined;
  };
  const typed = new WeakMap<object, Map<string, JsonObject[]>>();
  const byType = (schema: JsonValue, type: string) =>
    isObject(schema) ? typed.get(schema)?.get(type) : undefined;
  const rememberByType = (schema: JsonValue, type: string, nodes: JsonObject[]) => {
    if (!isObject(schema)) return;
    let perType = typed.get(schema);
    if (perType === undefined) {
      perType = new Map();
      typed.set(schema, perType);
    }
    perType.set(type, nodes);
  };
  return { resolve, expansion, children, staticChildren, byType, rememberByType };
}
