/**
 * The storm switch read at once (`isOnNow`) tells what its store read (`isOn`) tells, on the memory
 * store (held by this process alone), after every change; a store replicas share leaves it to the read.
 */
import { describe, expect, it } from 'vitest';
import { createTenantRegistry } from '../core/tenant-registry.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { setStorm, stormSwitch } from './storm-switch.js';

const tenantOn = (store: Store) =>
  createTenantRegistry({
    seed: 's',
    store,
    environment: 'production',
    realTime: () => 0,
    runJob: async () => undefined,
  })('t');

/** A store without `peek`, as one that other processes share (the Redis store has none). */
function sharedLike(store: MemoryStore): Store {
  const shared = Object.create(store) as Store & { peek?: unknown };
  Object.defineProperty(shared, 'peek', { value: undefined });
  return shared;
}

describe('the storm switch read at once', () => {
  for (const byDefault of [false, true]) {
    it(`agrees with the store's read after each setting (default ${byDefault})`, async () => {
      const tenant = tenantOn(new MemoryStore());
      const storm = stormSwitch(byDefault);
      for (const enabled of [null, true, false, null, !byDefault]) {
        await setStorm(tenant, enabled);
        expect(storm.isOnNow(tenant)).toBe(await storm.isOn(tenant));
      }
      await tenant.store.clearTenant();
      expect(storm.isOnNow(tenant)).toBe(byDefault);
    });
  }

  it('leaves the answer to the read when the store is shared with other processes', async () => {
    const tenant = tenantOn(sharedLike(new MemoryStore()));
    const storm = stormSwitch(false);
    await setStorm(tenant, true);
    expect(storm.isOnNow(tenant)).toBeUndefined();
    expect(await storm.isOn(tenant)).toBe(true);
  });

  it('creates nothing in the store for a tenant that never wrote', async () => {
    const store = new MemoryStore();
    expect(stormSwitch(false).isOnNow(tenantOn(store))).toBe(false);
    expect(await store.tenants()).toEqual([]);
  });
});
