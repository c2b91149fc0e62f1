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
    if (cached !== undefined && cached.text === text) {
      this.byName.delete(name);
      this.byName.set(name, cached);
      return cached.record;
    }
    const record = JSON.parse(text) as StoredRecord;
    this.byName.delete(name);
    this.byName.set(name, { text, record });
    if (this.byName.size > this.capacity) this.byName.delete(this.byName.keys().next().value as string);
    return record;
  }

  parse(text: string): StoredRecord {
    const cached = this.byText.get(text);
    if (cached !== undefined) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.byText.delete(text);
      this.byText.set(text, cached);
      return cached;
    }
    const record = JSON.parse(text) as StoredRecord;
    this.byText.set(text, record);
    if (this.byText.size > this.capacity) this.byText.delete(this.byText.keys().next().value as string);
    return record;
  }
}
