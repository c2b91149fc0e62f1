/**
 * Checks a whole snapshot before an import changes anything (an import once cleared the
 * tenant, then failed): each record's nesting, its id, its public members against the schema the
 * document gives that collection's records, and its link against the snapshot's links. Works in
 * slices that yield to other requests: a snapshot may hold a million records.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createDocumentAjv } from '../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import { indexOperations } from '../../../openapi/document/operation-index.js';
import type { ApiError } from '../core/api-error.js';
import { LINKS } from '../core/collections.js';
import type { StoredRecord } from '../store/store.js';
import type { SnapshotState } from './snapshot.js';
import { SNAPSHOT_MAX_DEPTH } from './snapshot-limits.js';

/** Records checked between two yields to the event loop. */
const SLICE = 1000;
/** A refusal names at most this many problems (a million bad records need not be listed). */
const MAX_ERRORS = 20;

export type CollectionSchemas = (collection: string) => ValidateFunction | null | undefined;

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The schema of one record of each collection the API serves: its detail's, else its list's items. */
export function collectionSchemas(api: JsonObject): CollectionSchemas {
  // Built on the first import, not at start: the document's Ajv costs ~0.3 s that most runs never use.
  let built: { ajv: ReturnType<typeof createDocumentAjv>; gets: Map<string, JsonValue | undefined> };
  const build = () => {
    const gets = new Map<string, JsonValue | undefined>();
    for (const operation of indexOperations(api)) {
      if (operation.method === 'GET') gets.set(operation.path, operation.responses.get('200')?.schema);
    }
    built = { ajv: createDocumentAjv(api), gets };
    return built;
  };
  const compiled = new Map<string, ValidateFunction | null>();
  const schemaOf = (gets: Map<string, JsonValue | undefined>, collection: string): JsonValue | undefined => {
    const detail = gets.get(`${collection}{id}/`);
    if (detail !== undefined) return detail;
    const list = gets.get(collection);
    if (!isObject(list)) return undefined;
    const results = isObject(list.properties) ? list.properties.results : undefined;
    const items = isObject(results) ? results.items : list.items;
    return items === undefined ? undefined : items;
  };
  // undefined: not a collection of the API; null: one without a record schema checked here.
  return (collection) => {
    if (!compiled.has(collection)) {
      const { ajv, gets } = built ?? build();
      if (!gets.has(collection)) return undefined;
      // Payments records are stored in another shape than the API shows (payment-records.ts renders
      // them), so only `/api/` records, stored as served, are checked against the document's schema.
      const schema = collection.startsWith('/api/') ? schemaOf(gets, collection) : undefined;
      compiled.set(collection, schema === undefined ? null : ajv.compile(schema));
    }
    return compiled.get(collection);
  };
}

/** Nesting depth of a JSON value, without recursion (a 10,000-deep record must not blow the stack). */
function tooDeep(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [item, depth] = top;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** What the API shows of a stored record: its members without the private ones (`_...`). */
function publicMembers(record: StoredRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) view[key] = value;
  return view;
}

function checkRecord(
  record: StoredRecord,
  field: string,
  validate: ValidateFunction | null | undefined,
  linkIds: ReadonlySet<string>,
): ApiError | undefined {
  if (tooDeep(record, SNAPSHOT_MAX_DEPTH)) {
    return { code: 'invalid', field, message: `The record nests deeper than ${SNAPSHOT_MAX_DEPTH} levels.` };
  }
  if (record.id === '' || record.id.includes('/')) {
    return {
      code: 'invalid',
      field: `${field}.id`,
      message: 'A record id is a non-empty string without "/".',
    };
  }
  if (validate && !validate(publicMembers(record))) {
    const [first] = validate.errors ?? [];
    const where = first?.instancePath.split('/').filter(Boolean).join('.');
    const message = `The record is not a valid API record: ${where || 'record'} ${first?.message ?? 'is not valid'}.`;
    return { code: 'invalid', field: where ? `${field}.${where}` : field, message };
  }
  // A data record of the API belongs to a link of the snapshot (private collections may outlive one).
  if (validate !== undefined && typeof record.link === 'string' && !linkIds.has(record.link)) {
    return { code: 'invalid', field: `${field}.link`, message: `No link ${record.link} in the snapshot.` };
  }
  return undefined;
}

/** Every problem of the snapshot's records (at most MAX_ERRORS); empty when it can be imported. */
export async function checkSnapshot(state: SnapshotState, schemas: CollectionSchemas): Promise<ApiError[]> {
  const errors: ApiError[] = [];
  const base = 'state.store.collections';
  const linkIds = new Set((state.store.collections[LINKS] ?? []).map((link) => link.id));
  let checked = 0;
  for (const [name, records] of Object.entries(state.store.collections)) {
    const validate = schemas(name);
    // Private collections (`_ofkit/events`, `_mfa_sessions`) have no schema in the API document.
    if (validate === undefined && !name.startsWith('_')) {
      errors.push({
        code: 'invalid',
        field: `${base}.${name}`,
        message: `The API has no collection ${name}.`,
      });
      continue;
    }
    const seen = new Set<string>();
    for (const [index, record] of records.entries()) {
      const field = `${base}.${name}.${index}`;
      const problem = seen.has(record.id)
        ? {
            code: 'invalid' as const,
            field: `${field}.id`,
            message: `Id ${record.id} is already in ${name}.`,
          }
        : checkRecord(record, field, validate, linkIds);
      seen.add(record.id);
      if (problem) errors.push(problem);
      if (errors.length >= MAX_ERRORS) return errors;
      if (++checked % SLICE === 0) await yieldToOthers();
    }
  }
  // Scenarios, faults and windows are flat: the pipeline checked them against admin.yaml.
  return errors;
}
