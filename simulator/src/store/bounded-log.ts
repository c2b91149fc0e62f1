/**
 * The memory store's bounded log: a ring of entries allocated once (the numbers in a typed array, the
 * texts in an array of that length), so an append on the request path is two writes and a few sums,
 * never a copy of the log. Reading finds `after` by binary search: the numbers only grow.
 */
import type { LogBounds, LoggedEntry } from './store.js';

export class BoundedLog {
  private seqs: Float64Array;
  private texts: string[];
  /** Slot of the oldest entry. */
  private start = 0;
  private count = 0;
  private size = 0;
  /** Entries the bounds removed (LogPage.dropped). */
  dropped = 0;

  constructor(capacity: number) {
    this.seqs = new Float64Array(capacity);
    this.texts = new Array<string>(capacity).fill('');
  }

  append(seq: number, entry: string, bounds: LogBounds): void {
    if (entry.length > bounds.size) {
      this.dropped += 1;
      return;
    }
    if (bounds.entries > this.seqs.length) this.grow(bounds.entries);
    while (this.count > 0 && (this.count >= bounds.entries || this.size + entry.length > bounds.size))
      this.dropOldest();
    if (bounds.entries <= 0) {
      this.dropped += 1;
      return;
    }
    const slot = (this.start + this.count) % this.seqs.length;
    this.seqs[slot] = seq;
    this.texts[slot] = entry;
    this.count += 1;
    this.size += entry.length;
  }

  /** Entries numbered after `after`, oldest first, at most `limit`. */
  after(after: number, limit: number): LoggedEntry[] {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.seqAt(middle) > after) high = middle;
      else low = middle + 1;
    }
    const found: LoggedEntry[] = [];
    for (let index = low; index < this.count && found.length < limit; index += 1) {
      const slot = (this.start + index) % this.seqs.length;
      found.push({ seq: this.seqs[slot]!, entry: this.texts[slot]! });
    }
    return found;
  }

  private seqAt(index: number): number {
    return this.seqs[(this.start + index) % this.seqs.length]!;
  }

  private dropOldest(): void {
    this.size -= this.texts[this.start]!.length;
    // The text goes at once: a slot kept until overwritten would hold its memory past the bound.
    this.texts[this.start] = '';
    this.start = (this.start + 1) % this.seqs.length;
    this.count -= 1;
    this.dropped += 1;
  }

  /** A larger bound than the log was made with: the entries move to a larger ring, in order. */
  private grow(capacity: number): void {
    const seqs = new Float64Array(capacity);
    const texts = new Array<string>(capacity).fill('');
    for (let index = 0; index < this.count; index += 1) {
      const slot = (this.start + index) % this.seqs.length;
      seqs[index] = this.seqs[slot]!;
      texts[index] = this.texts[slot]!;
    }
    this.seqs = seqs;
    this.texts = texts;
    this.start = 0;
  }
}
