/**
 * A recording's records as a snapshot of the control API (admin.yaml `Snapshot`, `ofkit-snapshot/2`):
 * each record checked first against the schema the document gives its collection's records and
 * against the links the recording holds, as the importer checks them, so that a record the document
 * rejects is listed with its reason instead of failing the whole import.
 */
import { isObject, type JsonValue } from '../../../openapi/document/json.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import type { RecordedState } from './recorded-records.js';

export interface RejectedRecord {
  collection: string;
  id: string;
  reason: string;
}

export interface ReplaySnapshot {
  snapshot: {
    format: 'ofkit-snapshot/2';
    clock: { now: string; frozen: boolean };
    state: {
      store: { collections: Record<string, Record<string, unknown>[]>; windows: Record<string, number[]> };
      scenarios: [];
      faults: [];
    };
  };
  /** Records kept, by collection. */
  counts: Map<string, number>;
  rejected: RejectedRecord[];
}

/** The schema of one record of `collection`: its detail's 200 body, else its list's items. */
function recordSchema(document: BridgeDocument, collection: string): JsonValue | undefined {
  const detail = document.operations.find((op) => op.method === 'GET' && op.path === `${collection}{id}/`);
  const detailSchema = detail?.responses.get('200')?.schema;
  if (detailSchema !== undefined) return detailSchema;
  const list = document.operations.find((op) => op.method === 'GET' && op.path === collection);
  const page = document.resolve(list?.responses.get('200')?.schema);
  if (!isObject(page)) return undefined;
  const results = isObject(page.properties) ? document.resolve(page.properties.results) : undefined;
  return isObject(results) ? results.items : undefined;
}

function problemOf(
  document: BridgeDocument,
  schema: JsonValue | undefined,
  record: Record<string, unknown>,
  links: Set<string>,
): string | undefined {
  if (schema === undefined) return 'the document gives no schema for its records';
  const validate = document.ajv.compile(schema);
  if (!validate(record)) {
    const [first] = validate.errors ?? [];
    return `${first?.instancePath || '(record)'} ${first?.message ?? 'is invalid'}`;
  }
  if (typeof record.link === 'string' && !links.has(record.link))
    return `its link ${record.link} is not in the recording (record a GET /api/links/ with the session)`;
  return undefined;
}

/** The snapshot of `state`, its clock at `now` (following real time from there unless `frozen`). */
export function replaySnapshot(
  document: BridgeDocument,
  state: RecordedState,
  now: string,
  frozen: boolean,
): ReplaySnapshot {
  const links = new Set(state.records.get('/api/links/')?.keys() ?? []);
  const collections: Record<string, Record<string, unknown>[]> = {};
  const counts = new Map<string, number>();
  const rejected: RejectedRecord[] = [];
  for (const [collection, byId] of state.records) {
    const schema = recordSchema(document, collection);
    const kept: Record<string, unknown>[] = [];
    for (const [id, record] of byId) {
      const reason = problemOf(document, schema, record, links);
      if (reason === undefined) kept.push(record);
      else rejected.push({ collection, id, reason });
    }
    if (kept.length > 0) {
      collections[collection] = kept;
      counts.set(collection, kept.length);
    }
  }
  return {
    snapshot: {
      format: 'ofkit-snapshot/2',
      clock: { now, frozen },
      state: { store: { collections, windows: {} }, scenarios: [], faults: [] },
    },
    counts,
    rejected,
  };
}
