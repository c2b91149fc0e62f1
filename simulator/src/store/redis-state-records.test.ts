import { describe, expect, it } from 'vitest';
import { StateRecords } from './redis-state-records.js';

describe('StateRecords', () => {
  const a = { id: 'a' };
  const b = { id: 'b' };

  it('finds records only at the state they were read at, and only when every one was read', () => {
    const kept = new StateRecords();
    kept.keep('t', 'g1\u00005', 'tx', ['a', 'b'], [a, b]);
    expect(kept.find('t', 'g1\u00005', 'tx', ['b', 'a'])).toEqual([b, a]);
    expect(kept.find('t', 'g1\u00006', 'tx', ['a'])).toBeUndefined();
    expect(kept.find('t', 'g2\u00005', 'tx', ['a'])).toBeUndefined();
    expect(kept.find('t', 'g1\u00005', 'tx', ['a', 'c'])).toBeUndefined();
    expect(kept.find('t', 'g1\u00005', 'accounts', ['a'])).toBeUndefined();
    expect(kept.find('u', 'g1\u00005', 'tx', ['a'])).toBeUndefined();
  });

  it("forgets a tenant's older state when a newer one is kept, and the least recently used tenant beyond its bound", () => {
    const kept = new StateRecords(2);
    kept.keep('t', 's1', 'tx', ['a'], [a]);
    kept.keep('t', 's2', 'tx', ['b'], [b]);
    expect(kept.find('t', 's1', 'tx', ['a'])).toBeUndefined();
    expect(kept.find('t', 's2', 'tx', ['b'])).toEqual([b]);
    kept.keep('u', 's', 'tx', ['a'], [a]);
    kept.find('t', 's2', 'tx', ['b']);
    kept.keep('v', 's', 'tx', ['a'], [a]);
    expect(kept.find('u', 's', 'tx', ['a'])).toBeUndefined();
    expect(kept.find('t', 's2', 'tx', ['b'])).toEqual([b]);
  });

  it("keeps a page's window only at the tenant's kept state, and forgets it with that state", () => {
    const kept = new StateRecords();
    kept.keepWindow('t', 's1', 'w', { total: 1, records: [a] });
    expect(kept.windowAt('t', 'w')).toBeUndefined();
    kept.keep('t', 's1', 'tx', ['a'], [a]);
    kept.keepWindow('t', 's1', 'w', { total: 1, records: [a] });
    kept.keepWindow('t', 's0', 'old', { total: 1, records: [b] });
    expect(kept.windowAt('t', 'w')).toEqual({ state: 's1', slice: { total: 1, records: [a] } });
    expect(kept.windowAt('t', 'old')).toBeUndefined();
    kept.keep('t', 's2', 'tx', ['b'], [b]);
    expect(kept.windowAt('t', 'w')).toBeUndefined();
  });
});
