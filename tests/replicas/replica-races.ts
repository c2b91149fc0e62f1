/**
 * The races three `ofkit simulate` replicas on one store run, through the API as clients behind a load
 * balancer would, each raced TRIALS times: clock moves, one link deleted from three replicas, async
 * deletions asked of three replicas, and a replica killed (SIGKILL) while it runs due jobs. Each race
 * prints one line: its trials and how they ended.
 */
import { expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../../simulator/test-support/test-receiver.js';
import { type Replica, startReplica } from './replica-process.js';

export const TRIALS = 50;
const T = Date.parse('2026-11-02T12:00:00.000Z');
const at = (seconds: number) => new Date(T + seconds * 1000).toISOString();
const seconds = (iso: string) => (Date.parse(iso) - T) / 1000;

export interface RaceSetup {
  /** The three replicas, started on one store. */
  replicas: () => readonly [Replica, Replica, Replica];
  /** The store's URL (with a short job lease), to start a replica to kill. */
  storeUrl: () => string;
  label: string;
}

const register = (on: Replica, username = '76109277673') =>
  on.call('POST', '/api/links/', {
    institution: 'ofbank_br_retail',
    username,
    password: 'secret',
    access_mode: 'single',
  });

/** Two calls at once, or one a millisecond or two after the other (by the trial's number: replayable). */
async function race<X, Y>(trial: number, first: () => Promise<X>, second: () => Promise<Y>): Promise<[X, Y]> {
  const delay = (trial % 5) - 2;
  const after = <Z>(ms: number, call: () => Promise<Z>) =>
    ms <= 0
      ? call()
      : new Promise<Z>((resolve, reject) => setTimeout(() => call().then(resolve, reject), ms));
  return Promise.all([after(delay, first), after(-delay, second)]);
}

function tally() {
  const counts = new Map<string, number>();
  return {
    add: (outcome: string) => counts.set(outcome, (counts.get(outcome) ?? 0) + 1),
    line: (race: string, trials = TRIALS) =>
      `${race}: ${trials} trials, ${[...counts].map(([outcome, n]) => `${n} ${outcome}`).join(', ')}`,
  };
}

/** Waits (real time, at most `ms`) until `done()`: deliveries and expiring leases take real time. */
async function until(done: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  for (let waited = 0; !(await done()) && waited < ms; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** `link_deleted` as the event log and the receiver saw them: per link, the events and the webhook ids. */
async function linkDeletedSeen(on: Replica, receiver: TestReceiver) {
  const logged = (
    (await on.call('GET', '/_ofkit/events/?webhook_code=link_deleted')).body as {
      payload: { link_id: string; webhook_id: string };
    }[]
  ).map((event) => event.payload);
  const delivered = receiver.received
    .map((delivery) => delivery.body)
    .filter((body) => body?.webhook_code === 'link_deleted');
  const idsByLink = (payloads: { link_id: string; webhook_id: string }[]) => {
    const ids = new Map<string, Set<string>>();
    for (const { link_id, webhook_id } of payloads)
      ids.set(link_id, (ids.get(link_id) ?? new Set()).add(webhook_id));
    return ids;
  };
  return { logged, delivered, loggedIds: idsByLink(logged), deliveredIds: idsByLink(delivered) };
}

export function defineReplicaRaces(setup: RaceSetup): void {
  const { label } = setup;

  it(`clock: an advance of 600 s and one of 1 s through two replicas add up (${TRIALS} trials)`, async () => {
    const [a, b, c] = setup.replicas();
    const outcomes = tally();
    for (let trial = 0; trial < TRIALS; trial++) {
      expect((await a.call('PUT', '/_ofkit/clock/', { now: at(0), frozen: true })).status).toBe(200);
      // A job on the way: an async deletion due at 1 s runs once, and the clock never falls back.
      const { id } = (await register(c)).body;
      await c.call('DELETE', `/api/links/${id}/`, undefined, { 'x-service-request-mode': 'async' });
      const [long, short] = await race(
        trial,
        () => a.call('POST', '/_ofkit/clock/advance/', { seconds: 600 }),
        () => b.call('POST', '/_ofkit/clock/advance/', { seconds: 1 }),
      );
      const answers = [seconds(long.body.now), seconds(short.body.now)];
      expect(Math.max(...answers)).toBe(601);
      expect(seconds((await c.call('GET', '/_ofkit/clock/')).body.now)).toBe(601);
      expect((await c.call('GET', `/api/links/${id}/`)).status).toBe(404);
      outcomes.add(answers[0] === 601 ? 'A last (answered 601)' : 'B last (answered 601)');
    }
    console.info(outcomes.line(`${label}: advance 600 s on A || 1 s on B -> clock 601 s every time`));
  });

  it(`clock: a set racing an advance is serialised, each answering the clock after it (${TRIALS} trials)`, async () => {
    const [a, b, c] = setup.replicas();
    const outcomes = tally();
    for (let trial = 0; trial < TRIALS; trial++) {
      await a.call('PUT', '/_ofkit/clock/', { now: at(0), frozen: true });
      const [set, advanced] = await race(
        trial,
        () => a.call('PUT', '/_ofkit/clock/', { now: at(10_000) }),
        () => b.call('POST', '/_ofkit/clock/advance/', { seconds: 5_000 }),
      );
      const [setTo, advancedTo] = [seconds(set.body.now), seconds(advanced.body.now)];
      const end = seconds((await c.call('GET', '/_ofkit/clock/')).body.now);
      if (advancedTo === 15_000) expect([setTo, end]).toEqual([10_000, 15_000]);
      else expect([advancedTo, setTo, end]).toEqual([5_000, 10_000, 10_000]);
      outcomes.add(advancedTo === 15_000 ? 'set first (15,000 s)' : 'advance first (10,000 s)');
    }
    console.info(outcomes.line(`${label}: set 10,000 s on A || advance 5,000 s on B`));
  });

  it(`DELETE-RATE-LIMIT: one link deleted from three replicas at once: one 204, two 404, one slot (${TRIALS} trials)`, async () => {
    const replicas = setup.replicas();
    const [a, b] = replicas;
    await a.call('PUT', '/_ofkit/clock/', { now: at(0), frozen: true });
    const outcomes = tally();
    for (let trial = 0; trial < TRIALS; trial++) {
      const { id } = (await register(replicas[trial % 3]!)).body;
      const answers = await Promise.all(replicas.map((on) => on.call('DELETE', `/api/links/${id}/`)));
      const statuses = answers.map((answer) => answer.status);
      outcomes.add(`204 from ${'ABC'[statuses.indexOf(204)]}`);
      expect([...statuses].sort()).toEqual([204, 404, 404]);
      if (trial % 5 !== 4) continue;
      // Five races took five slots: the window (5 per minute) is full, then empty a minute later.
      const spare = (await register(b)).body.id;
      expect((await b.call('DELETE', `/api/links/${spare}/`)).status).toBe(429);
      await a.call('POST', '/_ofkit/clock/advance/', { seconds: 61 });
    }
    console.info(outcomes.line(`${label}: DELETE x3 at once -> [204, 404, 404] every time`));
  });

  it(`LINK-DELETE-ASYNC: ${TRIALS} links each deleted asynchronously through three replicas: one link_deleted each`, async () => {
    const replicas = setup.replicas();
    const [a, b, c] = replicas;
    const receiver = await startReceiver();
    try {
      await a.call('PUT', '/_ofkit/clock/', { now: at(0), frozen: true });
      await a.call('PUT', '/_ofkit/webhooks/', {
        url: receiver.url,
        mode: 'deliver',
        environment: 'production',
      });
      const before = (await linkDeletedSeen(a, receiver)).logged.length;
      const ids: string[] = [];
      for (let trial = 0; trial < TRIALS; trial++) ids.push((await register(replicas[trial % 3]!)).body.id);
      for (const id of ids) {
        const asked = await Promise.all(
          replicas.map((on) =>
            on.call('DELETE', `/api/links/${id}/`, undefined, { 'x-service-request-mode': 'async' }),
          ),
        );
        expect(asked.map((answer) => answer.status)).toEqual([202, 202, 202]);
      }
      // Two replicas run the 150 due jobs at once, a third serves a request meanwhile.
      await Promise.all([
        a.call('POST', '/_ofkit/clock/advance/', { seconds: 5 }),
        b.call('POST', '/_ofkit/clock/advance/', { seconds: 5 }),
        c.call('GET', '/api/links/'),
      ]);
      for (const id of ids) expect((await c.call('GET', `/api/links/${id}/`)).status).toBe(404);
      await until(async () => (await linkDeletedSeen(a, receiver)).deliveredIds.size >= ids.length);
      const seen = await linkDeletedSeen(a, receiver);
      expect(seen.logged.length - before).toBe(ids.length);
      for (const id of ids) {
        expect(seen.loggedIds.get(id)?.size).toBe(1);
        expect(seen.deliveredIds.get(id)).toEqual(seen.loggedIds.get(id));
      }
      console.info(
        `${label}: async DELETE x3 of ${ids.length} links, clock moved by two replicas at once -> ${ids.length} link_deleted logged, ${seen.delivered.length} deliveries, one webhook_id per link`,
      );
    } finally {
      await receiver.close();
    }
  });

  it('a replica killed (SIGKILL) while it runs 150 due deletions: another goes on, nothing lost, nothing doubled', async () => {
    const [, b, c] = setup.replicas();
    const doomed = await startReplica('doomed', setup.storeUrl(), 'replicas');
    const receiver = await startReceiver();
    try {
      await b.call('PUT', '/_ofkit/clock/', { now: at(0), frozen: true });
      await b.call('PUT', '/_ofkit/webhooks/', {
        url: receiver.url,
        mode: 'deliver',
        environment: 'production',
      });
      const ids: string[] = [];
      for (let n = 0; n < 150; n++) ids.push((await register(n % 2 ? b : c)).body.id);
      for (const id of ids)
        await c.call('DELETE', `/api/links/${id}/`, undefined, { 'x-service-request-mode': 'async' });
      const moving = doomed.call('POST', '/_ofkit/clock/advance/', { seconds: 5 }).catch(() => undefined);
      await until(() => receiver.received.length >= 30);
      await doomed.kill();
      await moving;
      const deliveredAtKill = receiver.received.length;
      // The kill landed mid-run (else this test would prove nothing): links were left to delete.
      const leftAtKill = (await Promise.all(ids.map((id) => c.call('GET', `/api/links/${id}/`)))).filter(
        (answer) => answer.status === 200,
      ).length;
      expect(leftAtKill).toBeGreaterThan(0);
      // B moves the clock past the deletions: it runs every job nobody holds; the job the dead replica
      // held runs once its lease has lapsed (the store's time), at a later request or tick.
      await b.call('POST', '/_ofkit/clock/advance/', { seconds: 5 });
      await until(async () => {
        const left = await Promise.all(ids.map((id) => c.call('GET', `/api/links/${id}/`)));
        return left.every((answer) => answer.status === 404);
      });
      for (const id of ids) expect((await b.call('GET', `/api/links/${id}/`)).status).toBe(404);
      // A first delivery lost with the dead replica is repeated a minute later (WEBHOOK-RETRY).
      await b.call('POST', '/_ofkit/clock/advance/', { seconds: 120 });
      await until(async () => (await linkDeletedSeen(b, receiver)).deliveredIds.size >= ids.length);
      const seen = await linkDeletedSeen(b, receiver);
      const mine = seen.logged.filter((payload) => ids.includes(payload.link_id));
      expect(mine).toHaveLength(ids.length);
      for (const id of ids) {
        expect(seen.loggedIds.get(id)?.size).toBe(1);
        expect(seen.deliveredIds.get(id)).toEqual(seen.loggedIds.get(id));
      }
      const repeats = seen.delivered.length - new Set(seen.delivered.map((body) => body.webhook_id)).size;
      console.info(
        `${label}: SIGKILL after ${deliveredAtKill} of 150 deletions delivered (${leftAtKill} links left) -> 150 links deleted, 150 link_deleted logged, every one delivered with one webhook_id (${repeats} repeated deliveries)`,
      );
    } finally {
      await doomed.kill();
      await receiver.close();
    }
  });
}
