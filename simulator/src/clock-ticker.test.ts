import { describe, expect, it } from 'vitest';
import { FIXED_NOW } from '../test-support/contract-checked-simulator.js';
import { createTick } from './clock-ticker.js';
import { JobKinds } from './core/job-kinds.js';
import { createTenantRegistry } from './core/tenant-registry.js';
import { MemoryStore } from './store/memory-store.js';
import { StoreFailure } from './store/store-failure.js';

function tenantsOnAMovingClock() {
  const time = { now: FIXED_NOW };
  const ran: string[] = [];
  const slow = { done: Promise.resolve() };
  const jobKinds = new JobKinds();
  jobKinds.define('push', async (_tenant, args) => void ran.push(String(args.label)));
  jobKinds.define('slow', () => slow.done);
  const registry = createTenantRegistry({
    seed: 'ticker',
    store: new MemoryStore(),
    environment: 'production',
    realTime: () => time.now,
    runJob: (tenant, job, keep) => jobKinds.run(tenant, job, keep),
  });
  return { time, registry, ran, slow, a: registry('a'), b: registry('b') };
}

describe('WEBHOOK-RETRY', () => {
  it('the ticker runs the due jobs (retries) of every tenant whose clock follows real time', async () => {
    const { time, registry, ran, a, b } = tenantsOnAMovingClock();
    await a.clock.schedule(FIXED_NOW + 1000, 'push', { label: 'a' });
    await b.clock.schedule(FIXED_NOW + 2000, 'push', { label: 'b' });
    const tick = createTick(registry.all);
    await tick();
    expect(ran).toEqual([]);
    time.now += 1000;
    await tick();
    expect(ran).toEqual(['a']);
    time.now += 1000;
    await tick();
    expect(ran).toEqual(['a', 'b']);
  });

  it('a tenant whose jobs are still running is skipped, and never holds up the others', async () => {
    const { time, registry, ran, slow, a, b } = tenantsOnAMovingClock();
    let release = () => {};
    slow.done = new Promise<void>((done) => {
      release = done;
    });
    await a.clock.schedule(FIXED_NOW, 'slow');
    await a.clock.schedule(FIXED_NOW, 'push', { label: 'a' });
    await b.clock.schedule(FIXED_NOW, 'push', { label: 'b' });
    const tick = createTick(registry.all);
    const first = tick();
    // Let b's first run finish (a's waits for `slow`): a few turns of the event loop, no timer.
    for (let turn = 0; turn < 10; turn++) await new Promise((done) => setImmediate(done));
    time.now += 1000;
    await b.clock.schedule(FIXED_NOW + 1000, 'push', { label: 'b2' });
    await tick();
    expect(ran).toEqual(['b', 'b2']);
    release();
    await first;
    expect(ran).toEqual(['b', 'b2', 'a']);
  });

  it('a tick never rejects: a failing job or store is reported, the job runs again at the next tick', async () => {
    const ran: string[] = [];
    const flaky = { fail: true };
    const jobs = new JobKinds();
    jobs.define('flaky', async () => {
      if (flaky.fail) throw new StoreFailure('unavailable', 'Redis at redis://x: cannot be used');
      ran.push('flaky');
    });
    const registry = createTenantRegistry({
      seed: 'ticker',
      store: new MemoryStore(),
      environment: 'production',
      realTime: () => FIXED_NOW,
      runJob: (tenant, job, keep) => jobs.run(tenant, job, keep),
    });
    await registry('c').clock.schedule(FIXED_NOW, 'flaky');
    let failures = 0;
    const unreachable = async () => {
      throw new StoreFailure('unavailable', 'Redis at redis://x: cannot be used');
    };
    await createTick(unreachable, () => failures++)();
    const tick = createTick(registry.all, () => failures++);
    await tick();
    // The job met the store's failure: handed back, still scheduled.
    expect([failures, ran, await registry('c').clock.pendingJobs()]).toEqual([2, [], 1]);
    flaky.fail = false;
    await tick();
    expect([failures, ran, await registry('c').clock.pendingJobs()]).toEqual([2, ['flaky'], 0]);
  });
});
