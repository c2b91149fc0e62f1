/** The records DATA-DETAIL keeps: the latest served, per tenant and id, round and round. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArenaSlot } from './answer-arena.js';
import { SeenRecords } from './seen-records.js';

const slot = (start: number): ArenaSlot => ({ start, length: 1, lap: 0 });

describe('SeenRecords', () => {
  it('gives back the answer and write count that last served a record, per tenant', () => {
    const seen = new SeenRecords(4);
    seen.see('a', 'r1', slot(1), 0);
    seen.see('b', 'r1', slot(2), 5);
    seen.see('a', 'r1', slot(3), 1);
    expect(seen.get('a', 'r1')).toEqual({ answer: slot(3), writes: 1 });
    expect(seen.get('b', 'r1')).toEqual({ answer: slot(2), writes: 5 });
    expect(seen.get('a', 'r2')).toBeUndefined();
    expect(seen.get('c', 'r1')).toBeUndefined();
  });

  it('keeps the latest records served and lets the oldest go; one served again is the newest', () => {
    const seen = new SeenRecords(3);
    for (const id of ['r1', 'r2', 'r3']) seen.see('a', id, slot(1), 0);
    seen.see('a', 'r1', slot(2), 0);
    seen.see('a', 'r4', slot(3), 0);
    // Served: r1 r2 r3 r1 r4 -> the latest three places hold r3, r1 (again) and r4.
    expect(seen.get('a', 'r2')).toBeUndefined();
    expect(seen.get('a', 'r3')).toBeDefined();
    expect(seen.get('a', 'r1')).toEqual({ answer: slot(2), writes: 0 });
    seen.see('a', 'r5', slot(4), 0);
    expect(seen.get('a', 'r3')).toBeUndefined();
    expect(seen.get('a', 'r1')).toBeDefined();
  });

  it('forgets everything when cleared, and starts again', () => {
    const seen = new SeenRecords(2);
    seen.see('a', 'r1', slot(1), 0);
    seen.clear();
    expect(seen.get('a', 'r1')).toBeUndefined();
    seen.see('a', 'r2', slot(2), 0);
    seen.see('a', 'r3', slot(3), 0);
    expect(seen.get('a', 'r2')).toBeDefined();
  });

  it('holds exactly what the last `capacity` records served say (fast-check, fixed seed 5151: replays)', () => {
    const served = fc.array(
      fc.record({ tenant: fc.constantFrom('a', 'b'), id: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5') }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), served, (capacity, records) => {
        const seen = new SeenRecords(capacity);
        for (const [index, { tenant, id }] of records.entries()) seen.see(tenant, id, slot(index), index);
        // The model: of the latest `capacity` records served, each tenant's id's last one.
        const latest = records.map((record, index) => ({ ...record, index })).slice(-capacity);
        for (const tenant of ['a', 'b'])
          for (const id of ['r1', 'r2', 'r3', 'r4', 'r5']) {
            const last = latest.filter((r) => r.tenant === tenant && r.id === id).at(-1);
            const expected =
              last === undefined ? undefined : { answer: slot(last.index), writes: last.index };
            expect(seen.get(tenant, id)).toEqual(expected);
          }
      }),
      { numRuns: 500, seed: 5151 },
    );
  });
});
