import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store.js';
import { arm, type Fault, useFirst } from './armed-switches.js';
import type { TenantRuntime, TenantSlot } from './tenant.js';
import { scopeStore } from './tenant-store.js';

/** A tenant whose store counts its list reads (with its slots, the only parts of a runtime the switches use). */
function countingTenant() {
  const store = scopeStore(new MemoryStore(), 't');
  const reads = { count: 0 };
  const list: typeof store.list = (...args) => {
    reads.count += 1;
    return store.list(...args);
  };
  const locals = new Map<unknown, unknown>();
  const local = (slot: TenantSlot<unknown>) => {
    if (!locals.has(slot)) locals.set(slot, slot.create());
    return locals.get(slot);
  };
  return { tenant: { id: 't', store: { ...store, list }, local } as unknown as TenantRuntime, reads };
}

const fault = (id: string, remaining: number): Fault => ({
  id,
  operation_id: 'getLink',
  status: 500,
  remaining,
});

describe('ERR-500-408: the armed faults read once for concurrent requests', () => {
  it('requests that come together share one read, and the fault armed for 3 fails exactly 3 of 12', async () => {
    const { tenant, reads } = countingTenant();
    await arm(tenant, 'faults', fault('f', 3));
    const used = await Promise.all(
      Array.from({ length: 12 }, () => useFirst(tenant, 'faults', (f) => f.operation_id === 'getLink')),
    );
    expect(reads.count).toBe(1);
    expect(used.filter(Boolean).map((f) => f?.remaining)).toEqual([3, 2, 1]);
  });

  it('a request that comes after a read started reads again: it sees what was armed meanwhile', async () => {
    const { tenant, reads } = countingTenant();
    const first = useFirst(tenant, 'faults', () => true);
    // The first read starts; the fault is armed; then the second request comes.
    await Promise.resolve();
    await arm(tenant, 'faults', fault('late', 1));
    const second = useFirst(tenant, 'faults', () => true);
    expect(await first).toBeUndefined();
    expect(await second).toMatchObject({ id: 'late' });
    expect(reads.count).toBe(2);
  });
});
