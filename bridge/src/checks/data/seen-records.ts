/**
 * The records DATA-DETAIL compares a detail with: per tenant and record id, the answer that last served
 * the record and the tenant's write count then, for the latest `capacity` records served. A record
 * served again takes the newest place; the place it had is let go. The places are arrays allocated
 * once and written round and round, with one map per tenant from id to place: serving the same
 * records again updates that map's entries in place. A map keyed by `tenant|id`, each record moved to
 * its end as it was served again, made a key string and an entry per record of every page, and a
 * table rehashed as deleted entries piled up in it: garbage that outlived V8's young collections.
 * A page of 100 transactions recorded again and again (bench/proxy/recording-cpu.ts): 2.27-2.32 ms a
 * page with that map, 2.20-2.25 without keeping records at all; that map against these places, five
 * interleaved runs: 2.34 against 2.30 ms (medians).
 */
import type { ArenaSlot } from './answer-arena.js';

export interface SeenRecord {
  answer: ArenaSlot;
  /** The tenant's write count when it was served. */
  writes: number;
}

export class SeenRecords {
  /** Per place: whose record it holds (undefined: free, or let go for a newer place). */
  private readonly tenants: (string | undefined)[];
  private readonly ids: (string | undefined)[];
  private readonly answers: (ArenaSlot | undefined)[];
  private readonly writes: number[];
  /** tenant -> record id -> its place. */
  private readonly places = new Map<string, Map<string, number>>();
  private next = 0;

  constructor(readonly capacity: number) {
    this.tenants = new Array<string | undefined>(capacity).fill(undefined);
    this.ids = new Array<string | undefined>(capacity).fill(undefined);
    this.answers = new Array<ArenaSlot | undefined>(capacity).fill(undefined);
    this.writes = new Array<number>(capacity).fill(0);
  }

  /** Record `id` of `tenant` was just served by `answer`: now the latest. */
  see(tenant: string, id: string, answer: ArenaSlot, writes: number): void {
    const place = this.next;
    this.next = place + 1 === this.capacity ? 0 : place + 1;
    this.letGo(place);
    let byId = this.places.get(tenant);
    if (byId === undefined) {
      byId = new Map();
      this.places.set(tenant, byId);
    }
    const previous = byId.get(id);
    if (previous !== undefined) {
      this.tenants[previous] = undefined;
      this.answers[previous] = undefined;
    }
    byId.set(id, place);
    this.tenants[place] = tenant;
    this.ids[place] = id;
    this.answers[place] = answer;
    this.writes[place] = writes;
  }

  get(tenant: string, id: string): SeenRecord | undefined {
    const place = this.places.get(tenant)?.get(id);
    if (place === undefined) return undefined;
    return { answer: this.answers[place]!, writes: this.writes[place]! };
  }

  clear(): void {
    this.tenants.fill(undefined);
    this.ids.fill(undefined);
    this.answers.fill(undefined);
    this.places.clear();
    this.next = 0;
  }

  /** The record at `place` (when it is still there) is no longer among the latest. */
  private letGo(place: number): void {
    const tenant = this.tenants[place];
    if (tenant === undefined) return;
    const id = this.ids[place]!;
    const byId = this.places.get(tenant);
    if (byId?.get(id) === place) byId.delete(id);
    this.tenants[place] = undefined;
    this.answers[place] = undefined;
  }
}
