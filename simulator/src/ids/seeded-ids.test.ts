import { describe, expect, it } from 'vitest';
import { createIds, createRandom } from './seeded-ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('seeded ids', () => {
  it('the same seed gives the same ids; another seed gives others', () => {
    const take = (seed: string) => {
      const ids = createIds(createRandom(seed));
      return [ids.uuid(), ids.uuid(), ids.hex(32)];
    };
    expect(take('42')).toEqual(take('42'));
    expect(take('42')).not.toEqual(take('43'));
  });

  it('makes version-4-shaped UUIDs and hex strings of the asked length', () => {
    const ids = createIds(createRandom('shape'));
    for (let i = 0; i < 200; i++) expect(ids.uuid()).toMatch(UUID);
    expect(ids.hex(32)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('int and pick stay within their bounds', () => {
    const random = createRandom('bounds');
    for (let i = 0; i < 500; i++) {
      const n = random.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
      expect(['a', 'b']).toContain(random.pick(['a', 'b']));
    }
  });
});
