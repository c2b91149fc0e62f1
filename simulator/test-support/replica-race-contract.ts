/**
 * The races two or three replicas run on one store, each raced TRIALS times: clock moves (advances add
 * up, a set racing an advance is serialised), a removal (exactly one of three wins, one window slot) and
 * due jobs (each effect once). Run against the memory store (one process, several clocks) and against
 * Redis and a Redis Cluster (one connection per replica): one behaviour for every store.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../src/clock/virtual-clock.js';
import type { Store } from '../src/store/store.js';
import { testClockBacking } from './clock-backing.js';

export const TRIALS = 50;
const T = Date.parse('2026-11-02T12:00:00.000Z');
const SECOND = 1000;

/** Stores of replicas sharing one state: the same instance for memory, one connection each for Redis. */
export type ReplicaStores = () => Promise<Store[]>;

/** A replica's clock of `tenant`, standing frozen at T (set through the first replica). */
async function clocksAt(
  stores: Store[],
  tenant: string,
  jobs: Record<string, (args: Record<string, unknown>) => unknown> = {},
) {
  const clocks = stores.map((store) => {
    const backing = testClockBacking(tenant, store);
    for (const [kind, run] of Object.entries(jobs)) backing.define(kind, run);
    return new VirtualClock(() => T, backing);
  });
  await clocks[0]!.move({ to: T, frozen: true });
  return clocks;
}

/**
 * Starts `first` and `second` at once, or one a few event-loop turns after the other (by the trial's
 * number, so a run replays): the races interleave differently from trial to trial.
 */
async function race<A, B>(trial: number, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  const turns = (trial % 5) - 2;
  const later = async <T>(n: number, start: () => Promise<T>) => {
    for (let turn = 0; turn < n; turn++) await new Promise((resolve) => setImmediate(resolve));
    return start();
  };
  return Promise.all([later(Math.max(0, turns), first), later(Math.max(0, -turns), second)]);
}

/** Tallies how each trial ended, for the one line a race prints. */
function tally() {
  const counts = new Map<string, number>();
  return {
    add: (outcome: string) => counts.set(outcome, (counts.get(outcome) ?? 0) + 1),
    line: (race: string) =>
      `${race}: ${TRIALS} trials, ${[...counts].map(([outcome, n]) => `${n} ${outcome}`).join(', ')}`,
  };
}

export function runReplicaRaceContract(name: string, replicas: ReplicaStores): void {
  describe(`replicas racing on one ${name}`, () => {
    it(`two advances at once through two replicas add up (${TRIALS} trials); jobs on the way run once`, async () => {
      const stores = await replicas();
      const outcomes = tally();
      for (let trial = 0; trial < TRIALS; trial++) {
        const ran: number[] = [];
        const note = (args: Record<string, unknown>) => void ran.push(Number(args.at));
        const [a, b] = await clocksAt(stores, `advance-${trial}`, { note });
        for (const at of [1, 300, 600, 601, 700]) await a!.schedule(T + at * SECOND, 'note', { at });
        const [long, short] = await race(
          trial,
          () => a!.move({ by: 600 * SECOND }),
          () => b!.move({ by: SECOND }),
        );
        const ends = [long.state.now, short.state.now].map((now) => (now - T) / SECOND);
        expect(Math.max(...ends)).toBe(601);
        await a!.runDue();
        expect(a!.now()).toBe(T + 601 * SECOND);
        expect(ran.sort((x, y) => x - y)).toEqual([1, 300, 600, 601]);
        outcomes.add(
          ends[1] === 601 ? 'with the 1 s move redone on top' : 'with the 600 s move redone on top',
        );
      }
      console.info(outcomes.line(`${name}: advance 600 s || advance 1 s -> always 601 s`));
    });

    it(`a set racing an advance is serialised, and each answers the clock after it (${TRIALS} trials)`, async () => {
      const stores = await replicas();
      const outcomes = tally();
      for (let trial = 0; trial < TRIALS; trial++) {
        const [a, b] = await clocksAt(stores, `set-${trial}`);
        const [set, advanced] = await race(
          trial,
          () => a!.move({ to: T + 10_000 * SECOND }),
          () => b!.move({ by: 5_000 * SECOND }),
        );
        const [setTo, advancedTo] = [set.state.now, advanced.state.now].map((now) => (now - T) / SECOND);
        await a!.runDue();
        const end = (a!.now() - T) / SECOND;
        // Advance then set: 10,000 (the advance answered 5,000); set then advance: 15,000.
        if (advancedTo === 15_000) expect([setTo, end]).toEqual([10_000, 15_000]);
        else expect([advancedTo, setTo, end]).toEqual([5_000, 10_000, 10_000]);
        outcomes.add(advancedTo === 15_000 ? 'set first' : 'advance first');
      }
      console.info(outcomes.line(`${name}: set 10,000 s || advance 5,000 s -> 10,000 or 15,000 s`));
    });

    it(`one record removed by three replicas at once: one removal, one window slot (${TRIALS} trials)`, async () => {
      const stores = await replicas();
      for (let trial = 0; trial < TRIALS; trial++) {
        const tenant = `remove-${trial}`;
        await stores[0]!.put(tenant, 'links', { id: 'L', link: null });
        await stores[0]!.put(tenant, 'accounts', { id: 'a', link: 'L' });
        const window = { key: 'delete:links', now: T, windowMs: 60 * SECOND, limit: 5 };
        const removals = await Promise.all(
          stores.map((store) =>
            store.removeRecord(tenant, { collection: 'links', id: 'L', cascade: ['accounts'], window }),
          ),
        );
        expect(removals.map((removal) => removal.outcome).sort()).toEqual(['missing', 'missing', 'removed']);
        expect(await stores[1]!.list(tenant, 'accounts')).toEqual([]);
        const probe = await stores[2]!.hitSlidingWindow(tenant, window.key, T, window.windowMs, 100);
        expect(probe.count).toBe(2);
      }
    });

    it(`due jobs run by three replicas at once: each job once, each deletion once (${TRIALS} trials)`, async () => {
      const stores = await replicas();
      let doubled = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const tenant = `jobs-${trial}`;
        const effects: string[] = [];
        const runs: string[] = [];
        const clocks = stores.map((store) => {
          const backing = testClockBacking(tenant, store);
          // An async deletion: the removal is the effect, made once whoever runs the job.
          backing.define('delete', async (args) => {
            runs.push(String(args.job));
            const removal = await store.removeRecord(tenant, { collection: 'links', id: String(args.link) });
            if (removal.outcome === 'removed') effects.push(String(args.link));
          });
          return new VirtualClock(() => T, backing);
        });
        await clocks[0]!.move({ to: T, frozen: true });
        for (let n = 0; n < 4; n++) await stores[0]!.put(tenant, 'links', { id: `L${n}`, link: null });
        // Six deletions of four links: L0 and L1 are deleted twice (two async requests each).
        for (const [job, link] of ['L0', 'L1', 'L2', 'L3', 'L0', 'L1'].entries())
          await clocks[0]!.schedule(T + SECOND, 'delete', { link, job });
        await Promise.all(
          clocks.map((clock, n) => (n === 0 ? clock.advance(SECOND) : clock.runDue(T + SECOND))),
        );
        await clocks[0]!.runDue();
        if (new Set(runs).size !== runs.length) doubled += 1;
        expect(runs.sort()).toEqual(['0', '1', '2', '3', '4', '5']);
        expect(effects.sort()).toEqual(['L0', 'L1', 'L2', 'L3']);
        expect(await stores[0]!.countJobs(tenant)).toBe(0);
      }
      expect(doubled).toBe(0);
    });
  });
}
