/**
 * The records the Redis store has parsed lately, by their JSON text: the same text gives back the same
 * object, so the views record-views.ts keeps per object (the API's JSON of a record) survive between
 * requests as they do with the memory store. Records are values (callers never change them), so sharing
 * one object between callers is what the memory store does too. Bounded: least recently used go first.
 */
import type { StoredRecord } from './store.js';

export class RecordCache {
  private readonly byText = new Map<string, StoredRecord>();
  /** Where the caller names the record (tenant, collection, id): the text compared, never hashed. */
  private readonly byName = new Map<string, { text: string; record: StoredRecord }>();

  constructor(private readonly capacity = 10_000) {}

  /**
   * The record of `text`, kept under `name`: a page's records are looked up by their short names, not by
   * hashing each record's whole text (a page of 100 is 100 KB of it).
   */
  parseNamed(name: string, text: string): StoredRecord {
    const cached = this.byName.get(name);
    if (cached !== undefined && cached.text === text) return this.keep(this.byName, name, cached).record;
    return this.keep(this.byName, name, { text, record: JSON.parse(text) as StoredRecord }).record;
  }

  parse(text: string): StoredRecord {
    return this.keep(this.byText, text, this.byText.get(text) ?? (JSON.parse(text) as StoredRecord));
  }

  /**
   * Puts `value` last under `key` (re-inserted: a Map iterates in insertion order, so the first key is
   * the least recently used) and forgets the least recently used beyond the capacity.
   */
  private keep<V>(map: Map<string, V>, key: string, value: V): V {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.capacity) map.delete(map.keys().next().value as string);
    return value;
  }
}
