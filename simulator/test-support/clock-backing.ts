/** A clock backing for unit tests of the clock: the tenant clock's own backing on a MemoryStore, jobs run by kind. */

import { storeClockBacking } from '../src/clock/tenant-clock.js';
import type { ClockBacking } from '../src/clock/virtual-clock.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/store.js';

export interface TestClockBacking extends ClockBacking {
  /** Runs `run` for the jobs of `kind`, with their arguments. */
  define(kind: string, run: (args: Record<string, unknown>) => unknown): void;
}

export function testClockBacking(tenant = 't', store: Store = new MemoryStore()): TestClockBacking {
  const runners = new Map<string, (args: Record<string, unknown>) => unknown>();
  const backing = storeClockBacking(store, tenant, async (job) => {
    const run = runners.get(job.kind);
    if (!run) throw new Error(`no runner for ${job.kind}`);
    await run(job.args);
  });
  return { ...backing, define: (kind, run) => void runners.set(kind, run) };
}
