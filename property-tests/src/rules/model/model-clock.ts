/**
 * The model's time. With the control API the target's clock is frozen for the run and moves only by
 * AdvanceClock, so the model knows it to the millisecond. Without it the target follows real time: the
 * model brackets every request with the suite's own monotonic clock and only expects what the elapsed
 * time decides either way (a cooldown surely running, a window surely over).
 */

/** When the target handled a request, on the model's timeline (ms): no earlier and no later than this. */
export interface Moment {
  earliest: number;
  latest: number;
}

export interface ModelClock {
  /** True when the control API froze the target's clock (AdvanceClock and exact expectations). */
  readonly controlled: boolean;
  /** Sends one request and says when the target handled it. */
  around<T>(send: () => Promise<T>): Promise<[T, Moment]>;
  /** AdvanceClock moved the target's clock forward. */
  advance(ms: number): void;
  /** How far AdvanceClock moved the clock in this run. */
  advancedMs(): number;
}

/** The target's clock frozen by the control API: time is what AdvanceClock made it. */
export function controlledClock(): ModelClock {
  let now = 0;
  return {
    controlled: true,
    async around(send) {
      const answer = await send();
      return [answer, { earliest: now, latest: now }];
    },
    advance(ms) {
      now += ms;
    },
    advancedMs: () => now,
  };
}

/** The target's own clock, bracketed by the suite's monotonic clock. */
export function realClock(): ModelClock {
  return {
    controlled: false,
    async around(send) {
      const earliest = performance.now();
      const answer = await send();
      return [answer, { earliest, latest: performance.now() }];
    },
    advance() {
      throw new Error('AdvanceClock needs the control API');
    },
    advancedMs: () => 0,
  };
}

/** `at` is surely less than `windowMs` after `since`, however the target timed both. */
export const surelyWithin = (since: Moment, at: Moment, windowMs: number) =>
  at.latest - since.earliest < windowMs;

/** `at` is surely `windowMs` or more after `since`. */
export const surelyPast = (since: Moment, at: Moment, windowMs: number) =>
  at.earliest - since.latest >= windowMs;
