/** One collection of the memory store: records by id in insertion order, with a per-link index. */
import type { StoredRecord } from './store.js';

export function getOrCreate<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  const created = make();
  map.set(key, created);
  return created;
}

export class Collection {
  readonly byId = new Map<string, StoredRecord>();
  readonly byLink = new Map<string, Map<string, StoredRecord>>();
  /**
   * The lists last handed out, whole (`''`) and per link, until a change: a list page of a link with
   * 10,000 records no longer copies them all on every request.
   */
  private readonly lists = new Map<string, readonly StoredRecord[]>();

  /** The records in order, whole or of one link; shared until the next change (do not change it). */
  listed(link: string | undefined): readonly StoredRecord[] {
    const key = link ?? '';
    let list = this.lists.get(key);
    if (list === undefined) {
      const source = link === undefined ? this.byId : this.byLink.get(link);
      list = source ? [...source.values()] : [];
      this.lists.set(key, list);
    }
    return list;
  }

  private changed(link: unknown): void {
    this.lists.delete('');
    if (typeof link === 'string') this.lists.delete(link);
  }

  put(record: StoredRecord): void {
    this.remove(record.id);
    this.changed(record.link);
    this.byId.set(record.id, record);
    if (typeof record.link === 'string') {
      getOrCreate(this.byLink, record.link, () => new Map<string, StoredRecord>()).set(record.id, record);
    }
  }

  /** Replaces a record keeping its place in the order (same id, same link). */
  replaceInPlace(record: StoredRecord): void {
    this.changed(record.link);
    this.byId.set(record.id, record);
    if (typeof record.link === 'string') this.byLink.get(record.link)?.set(record.id, record);
  }

  remove(id: string): boolean {
    const existing = this.byId.get(id);
    if (!existing) return false;
    this.changed(existing.link);
    this.byId.delete(id);
    if (typeof existing.link === 'string') this.byLink.get(existing.link)?.delete(id);
    return true;
  }
}
