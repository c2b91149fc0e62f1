import { describe, expect, it } from 'vitest';
import { type TestClockBacking, testClockBacking } from '../../test-support/clock-backing.js';
import { MemoryStore } from '../store/memory-store.js';
import { VirtualClock } from './virtual-clock.js';

function manualRealTime(start: number) {
  let now = start;
  return { read: () => now, pass: (ms: number) => (now += ms) };
}

describe('VirtualClock', () => {
  it('follows real time until frozen, then stands still', async () => {
    const real = manualRealTime(1_000);
    const clock = new VirtualClock(real.read, testClockBacking());
    real.pass(500);
    expect(clock.now()).toBe(1_500);
    await clock.freeze();
    real.pass(10_000);
    expect(clock.now()).toBe(1_500);
    await clock.unfreeze();
    real.pass(100);
    expect(clock.now()).toBe(1_600);
  });

  it('advancing runs every job that falls due, in order, at its own instant', async () => {
    const backing = testClockBacking();
    const clock = new VirtualClock(manualRealTime(0).read, backing);
    await clock.freeze();
    const seen: string[] = [];
    backing.define('note', (args) => void seen.push(`${String(args.label)}@${clock.now()}`));
    backing.define('then b', async () => {
      seen.push(`a@${clock.now()}`);
      await clock.schedule(200, 'note', { label: 'b' });
    });
    await clock.schedule(300, 'note', { label: 'c' });
    await clock.schedule(100, 'then b');
    await clock.schedule(900, 'note', { label: 'late' });
    expect(await clock.advance(500)).toBe(3);
    expect(seen).toEqual(['a@100', 'b@200', 'c@300']);
    expect(clock.now()).toBe(500);
    expect(await clock.pendingJobs()).toBe(1);
  });

  it('setting the clock backwards runs nothing', async () => {
    const backing = testClockBacking();
    const clock = new VirtualClock(manualRealTime(1_000).read, backing);
    await clock.freeze();
    let ran = false;
    backing.define('mark', () => {
      ran = true;
    });
    await clock.schedule(2_000, 'mark');
    expect(await clock.setTo(0)).toBe(0);
    expect(ran).toBe(false);
    expect(clock.now()).toBe(0);
  });

  it('two clocks on one store (two replicas): their advances add up, and each job runs once', async () => {
    const store = new MemoryStore();
    const real = manualRealTime(0);
    const onA = testClockBacking('t', store);
    const onB = testClockBacking('t', store);
    const a = new VirtualClock(real.read, onA);
    const b = new VirtualClock(real.read, onB);
    const ran: string[] = [];
    onA.define('job', (args) => void ran.push(`A:${String(args.n)}`));
    onB.define('job', (args) => void ran.push(`B:${String(args.n)}`));
    await a.freeze();
    for (let n = 1; n <= 6; n++) await a.schedule(n * 100, 'job', { n });
    // Both advance at once from 0: one move is made on top of the other, never instead of it.
    const [fromB, fromA] = await Promise.all([b.move({ by: 250 }), a.move({ by: 250 })]);
    expect([fromA.state.now, fromB.state.now].sort()).toEqual([250, 500]);
    await a.runDue();
    expect(ran.map((entry) => entry.slice(2)).sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(a.now()).toBe(500);
    await b.runDue();
    expect(b.now()).toBe(500);
    await a.advance(1_000);
    expect(ran.map((entry) => entry.slice(2)).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    await b.runDue();
    expect(b.state()).toEqual({ now: 1_500, frozen: true });
  });

  it('a set racing an advance is serialised: the clock ends where one order puts it, and each answer is the clock after it', async () => {
    const store = new MemoryStore();
    const real = manualRealTime(0);
    const a = new VirtualClock(real.read, testClockBacking('t', store));
    const b = new VirtualClock(real.read, testClockBacking('t', store));
    await a.setTo(1_000);
    await a.freeze();
    const [set, advanced] = await Promise.all([a.move({ to: 5_000 }), b.move({ by: 10 })]);
    await a.runDue();
    // Set then advance: 5,010 (the advance answers it); advance then set: 5,000 (the set answers it).
    if (advanced.state.now === 5_010) expect(set.state.now).toBe(5_000);
    else expect([advanced.state.now, set.state.now]).toEqual([1_010, 5_000]);
    expect(a.now()).toBe(Math.max(set.state.now, advanced.state.now));
  });
  it('concurrent runs up to now share one run that reads the time after they came, and never overtake a move queued before them', async () => {
    const real = manualRealTime(0);
    const backing = testClockBacking();
    let loads = 0;
    const counted: TestClockBacking = {
      ...backing,
      loadState: () => {
        loads += 1;
        return backing.loadState();
      },
    };
    const clock = new VirtualClock(real.read, counted);
    const ran: number[] = [];
    backing.define('note', (args) => void ran.push(Number(args.at)));
    await clock.schedule(50, 'note', { at: 50 });
    await clock.schedule(150, 'note', { at: 150 });
    await clock.schedule(5_000, 'note', { at: 5_000 });
    // The first run is under way (its turn started); the next three come while it runs.
    const first = clock.runDue();
    await Promise.resolve();
    real.pass(100);
    loads = 0;
    const joined = [clock.runDue(), clock.runDue(), clock.runDue()];
    real.pass(100);
    await Promise.all([first, ...joined]);
    // One run for the three, which read the time (200) when it started: the job due at 150 ran.
    expect(loads).toBe(1);
    expect(ran).toEqual([50, 150]);
    // A run queued after a move waits for it: it is not the run queued before the move.
    const before = clock.runDue();
    const moved = clock.advance(10_000);
    const after = clock.runDue();
    expect(after).not.toBe(before);
    await Promise.all([before, moved, after]);
    expect(ran).toEqual([50, 150, 5_000]);
  });
});
