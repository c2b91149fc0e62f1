/**
 * AUTH-TENANT broken on purpose: a store whose queries are not scoped by API key, so every key reads,
 * changes and deletes one shared account (the leak of a server that forgot the tenant in its WHERE).
 */
import type { Store } from '../store/store.js';

const SHARED = 'shared-account';

export function sharedAccountStore(store: Store): Store {
  return {
    get: (_tenant, collection, id) => store.get(SHARED, collection, id),
    put: (_tenant, collection, record) => store.put(SHARED, collection, record),
    delete: (_tenant, collection, id) => store.delete(SHARED, collection, id),
    list: (_tenant, collection, where) => store.list(SHARED, collection, where),
    deleteByLink: (_tenant, collection, link) => store.deleteByLink(SHARED, collection, link),
    hitSlidingWindow: (tenant, key, now, windowMs, limit) =>
      store.hitSlidingWindow(tenant, key, now, windowMs, limit),
    exportTenant: () => store.exportTenant(SHARED),
    importTenant: (_tenant, snapshot) => store.importTenant(SHARED, snapshot),
    clearTenant: () => store.clearTenant(SHARED),
  };
}
