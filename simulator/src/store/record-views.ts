/**
 * What the API shows of a stored record: its members without the private ones (`_...`), as a value and
 * as JSON text. Both are computed once per stored record and kept while the record lives: records are
 * values (a change is a `put` of a new object), so a list page costs a join of cached texts instead of a
 * copy and a stringify of every record on every request (measured: the two were ~57% of a 100-record
 * page's CPU). `put` forgets the views of the object it stores, for callers that re-put an object they
 * changed in place.
 */
import type { StoredRecord } from './store.js';

const views = new WeakMap<StoredRecord, Readonly<Record<string, unknown>>>();
const texts = new WeakMap<StoredRecord, Buffer>();

function hasPrivateMembers(record: StoredRecord): boolean {
  for (const key in record) if (key.startsWith('_')) return true;
  return false;
}

/** The record without its private members (the record itself when it has none). Do not change it. */
export function publicView(record: StoredRecord): Record<string, unknown> {
  let view = views.get(record);
  if (view === undefined) {
    view = record;
    if (hasPrivateMembers(record)) {
      const copy: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(record)) if (!key.startsWith('_')) copy[key] = value;
      view = copy;
    }
    views.set(record, view);
  }
  return view as Record<string, unknown>;
}

/** `JSON.stringify(publicView(record))` as UTF-8 bytes, cached (encoding was the next cost measured). */
export function publicJson(record: StoredRecord): Buffer {
  let bytes = texts.get(record);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(publicView(record)));
    texts.set(record, bytes);
  }
  return bytes;
}

/** Called by stores on `put`: the object may have changed since its views were made. */
export function forgetViews(record: StoredRecord): void {
  views.delete(record);
  texts.delete(record);
}
