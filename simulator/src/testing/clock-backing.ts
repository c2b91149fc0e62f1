/** A clock backing for unit tests of the clock: a MemoryStore's schedule, jobs run by kind from `define`. */
import type { ClockBacking } from '../clock/virtual-clock.js';
import { MemoryStore } from '../store/memory-store.js';

export interface TestClockBacking extends ClockBacking {
  /** Runs `run` for the jobs of `kind`, with their arguments. */
  define(kind: string, run: (args: Record<string, unknown>) => unknown): void;
}

export function testClockBacking(tenant = 't', store = new MemoryStore()): TestClockBacking {
  const runners = new Map<string, (args: Record<string, unknown>) => unknown>();
  return {
    define: (kind, run) => void runners.set(kind, run),
    async loadState() {
      const stored = await store.get(tenant, '_runtime', 'clock');
      return stored
        ? { offset: Number(stored.offset), frozenAt: (stored.frozenAt as number | null) ?? null }
        : undefined;
    },
    saveState: (state) => store.put(tenant, '_runtime', { id: 'clock', ...state }),
    async addJob(job) {
      const order = await store.nextSequence(tenant, 'jobs');
      await store.addJob(tenant, { id: `job-${order}`, order, ...job });
    },
    claimDue: (until) => store.claimDueJob(tenant, until),
    upcoming: (limit) => store.upcomingJobs(tenant, limit),
    count: () => store.countJobs(tenant),
    clear: () => store.clearJobs(tenant),
    async run(job) {
      const run = runners.get(job.kind);
      if (!run) throw new Error(`no runner for ${job.kind}`);
      await run(job.args);
    },
  };
}
