/**
 * The timers of one delay a call left pending: `setTimeout` is watched while `run` runs, and a timer of
 * `delayMs` (a delay the test chooses, unique to it) counts until it is cleared. Counting every timer of
 * the process instead would count the timers other test files of a shared worker set and clear meanwhile.
 */
import { vi } from 'vitest';

export async function pendingTimersOf(delayMs: number, run: () => Promise<unknown>): Promise<number> {
  const pending = new Set<unknown>();
  const setTimer = globalThis.setTimeout;
  const clearTimer = globalThis.clearTimeout;
  const watchedSet = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    handler: () => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const timer = (setTimer as (...all: unknown[]) => unknown)(handler, ms, ...args);
    if (ms === delayMs) pending.add(timer);
    return timer;
  }) as unknown as typeof setTimeout);
  const watchedClear = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
    pending.delete(timer);
    clearTimer(timer);
  });
  try {
    await run();
  } finally {
    watchedSet.mockRestore();
    watchedClear.mockRestore();
  }
  return pending.size;
}
