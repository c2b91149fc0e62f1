/**
 * `ofkit/store`: where the simulator keeps tenants' state. The memory store is the default of
 * `startSimulator`; a RedisStore shared by several simulators makes them replicas of one service
 * (README, "Running several replicas"). A separate entry point, so that `ofkit/simulator` never loads
 * node-redis.
 */
export { MemoryStore } from './memory-store.js';
export { RedisStore, RedisStoreError, type RedisStoreOptions } from './redis-store.js';
export type {
  JobRecord,
  RecordSlice,
  SlidingWindowHit,
  Store,
  StoredRecord,
  TenantSnapshot,
} from './store.js';
