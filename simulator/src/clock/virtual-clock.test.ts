import { describe, expect, it } from 'vitest';
import { VirtualClock } from './virtual-clock.js';

function manualRealTime(start: number) {
  let now = start;
  return { read: () => now, pass: (ms: number) => (now += ms) };
}

describe('VirtualClock', () => {
  it('follows real time until frozen, then stands still', () => {
    const real = manualRealTime(1_000);
    const clock = new VirtualClock(real.read);
    real.pass(500);
    expect(clock.now()).toBe(1_500);
    clock.freeze();
    real.pass(10_000);
    expect(clock.now()).toBe(1_500);
    clock.unfreeze();
    real.pass(100);
    expect(clock.now()).toBe(1_600);
  });

  it('advancing runs every job that falls due, in order, at its own instant', async () => {
    const clock = new VirtualClock(manualRealTime(0).read);
    clock.freeze();
    const seen: string[] = [];
    clock.schedule(300, () => void seen.push(`c@${clock.now()}`));
    clock.schedule(100, () => {
      seen.push(`a@${clock.now()}`);
      clock.schedule(200, () => void seen.push(`b@${clock.now()}`));
    });
    clock.schedule(900, () => void seen.push('late'));
    expect(await clock.advance(500)).toBe(3);
    expect(seen).toEqual(['a@100', 'b@200', 'c@300']);
    expect(clock.now()).toBe(500);
    expect(clock.pendingJobs()).toBe(1);
  });

  it('setting the clock backwards runs nothing', async () => {
    const clock = new VirtualClock(manualRealTime(1_000).read);
    clock.freeze();
    let ran = false;
    clock.schedule(2_000, () => {
      ran = true;
    });
    expect(await clock.setTo(0)).toBe(0);
    expect(ran).toBe(false);
    expect(clock.now()).toBe(0);
  });
});
