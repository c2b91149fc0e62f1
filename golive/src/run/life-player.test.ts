/**
 * golive playing a recurrent link's life against a control API of its own making, on fake timers: no day
 * passes before the client registered a link; each next day waits until the client has been quiet for a
 * moment (the day's deliveries and reads), at most a few seconds for a worker that never is; the end
 * file appears once every script has finished, and a client that ended first did not live to the end.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecurrentLifeScript, SimulatorControl } from '../../../simulator/src/index.js';
import { type LifePlayer, playRecurrentLives } from './life-player.js';

const folder = mkdtempSync(join(tmpdir(), 'ofkit-life-player-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A tenant whose script finishes after `days` days; each day's events are the client's activity. */
function tenant(days: number, onDay: () => void) {
  let lives: RecurrentLifeScript[] = [];
  const advanced: number[] = [];
  const control = {
    recurrentLives: async () => lives,
    advanceClock: async (seconds: number) => {
      advanced.push(Math.round(performance.now()));
      onDay();
      if (advanced.length >= days) lives = lives.map((life) => ({ ...life, finished: true }));
      return { now: new Date(seconds).toISOString(), frozen: false };
    },
  } as unknown as SimulatorControl;
  const register = () => {
    lives = [{ link: 'b2c3', finished: false } as RecurrentLifeScript];
  };
  return { control, advanced, register };
}

/** Stops the player, its pause (on the fake timers) run out. */
async function stopped(player: LifePlayer): Promise<boolean> {
  const stopping = player.stop();
  await vi.advanceTimersByTimeAsync(1000);
  return stopping;
}

describe('playRecurrentLives', () => {
  it('waits for a life, moves a day each time the client is quiet, and creates the end file', async () => {
    let lastActivity = performance.now();
    const { control, advanced, register } = tenant(3, () => {
      lastActivity = performance.now();
    });
    const endFile = join(folder, 'quiet');
    const player = playRecurrentLives({
      control,
      endFile,
      deliveriesIdle: async () => {},
      lastActivityAt: () => lastActivity,
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(advanced).toEqual([]);
    register();
    await vi.advanceTimersByTimeAsync(200);
    expect(advanced).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(advanced).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(advanced).toHaveLength(3);
    // Each day came once the day before had been quiet for 0.6 s.
    expect(advanced[2]! - advanced[1]!).toBeGreaterThanOrEqual(600);
    expect(readFileSync(endFile, 'utf8')).toBe('b2c3\n');
    expect(await player.stop()).toBe(true);
  });

  it('moves the days of a worker that is never quiet, each after 5 s', async () => {
    const { control, advanced, register } = tenant(2, () => {});
    register();
    const player = playRecurrentLives({
      control,
      endFile: join(folder, 'busy'),
      deliveriesIdle: async () => {},
      lastActivityAt: () => performance.now(),
    });
    await vi.advanceTimersByTimeAsync(4900);
    expect(advanced).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(advanced).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5200);
    expect(advanced).toHaveLength(2);
    expect(await stopped(player)).toBe(false);
  });

  it('says a client that ended before the script did not live to the end, and leaves no end file', async () => {
    let lastActivity = performance.now();
    const { control, register } = tenant(10, () => {
      lastActivity = performance.now();
    });
    register();
    const endFile = join(folder, 'early');
    const player = playRecurrentLives({
      control,
      endFile,
      deliveriesIdle: async () => {},
      lastActivityAt: () => lastActivity,
    });
    await vi.advanceTimersByTimeAsync(1500);
    expect(await stopped(player)).toBe(false);
    expect(existsSync(endFile)).toBe(false);
  });
});
