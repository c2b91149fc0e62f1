import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store.js';
import { createTenantRegistry } from '../tenants/tenant-runtime.js';
import { FIXED_NOW } from '../testing/contract-checked-simulator.js';
import { createTick } from './clock-ticker.js';

function tenantsOnAMovingClock() {
  const time = { now: FIXED_NOW };
  const registry = createTenantRegistry({
    seed: 'ticker',
    store: new MemoryStore(),
    environment: 'production',
    realTime: () => time.now,
  });
  return { time, registry, a: registry('a'), b: registry('b') };
}

describe('WEBHOOK-RETRY', () => {
  it('the ticker runs the due jobs (retries) of every tenant whose clock follows real time', async () => {
    const { time, registry, a, b } = tenantsOnAMovingClock();
    const ran: string[] = [];
    a.clock.schedule(FIXED_NOW + 1000, () => void ran.push('a'));
    b.clock.schedule(FIXED_NOW + 2000, () => void ran.push('b'));
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
    const { time, registry, a, b } = tenantsOnAMovingClock();
    let release = () => {};
    const slow = new Promise<void>((done) => {
      release = done;
    });
    const ran: string[] = [];
    a.clock.schedule(FIXED_NOW, () => slow);
    a.clock.schedule(FIXED_NOW, () => void ran.push('a'));
    b.clock.schedule(FIXED_NOW, () => void ran.push('b'));
    const tick = createTick(registry.all);
    const first = tick();
    // Let b's first run finish (a's waits for `slow`): the next turn of the event loop, no timer.
    await new Promise((done) => setImmediate(done));
    time.now += 1000;
    b.clock.schedule(FIXED_NOW + 1000, () => void ran.push('b2'));
    await tick();
    expect(ran).toEqual(['b', 'b2']);
    release();
    await first;
    expect(ran).toEqual(['b', 'b2', 'a']);
  });
});
