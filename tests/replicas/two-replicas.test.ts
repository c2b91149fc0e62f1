/**
 * Two simulator processes on one redis-server: requests alternate between them and every
 * rule still holds as if one process served them all (LINK-MFA-428, LINK-REFRESH-COOLDOWN,
 * DELETE-RATE-LIMIT, ERR-500-408, LINK-DELETE-ASYNC, WEBHOOK-RETRY), the clock is one clock, and a
 * replica killed mid-run loses nothing. Only loopback traffic; processes stopped by their own PIDs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';
import { startReceiver, type TestReceiver } from '../../simulator/test-support/test-receiver.js';
import { type Replica, startReplica } from './replica-process.js';

const title = skipRedis ? `two replicas on Redis (skipped: ${REDIS_SKIP_REASON})` : 'two replicas on Redis';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

const START = '2026-11-02T12:00:00.000Z';
const register = (on: Replica, username = '76109277673') =>
  on.call('POST', '/api/links/', { institution: 'ofbank_br_retail', username, password: 'secret' });

describe.skipIf(skipRedis)(title, () => {
  let redis: RunningRedis;
  let a: Replica;
  let b: Replica;
  let receiver: TestReceiver;

  beforeAll(async () => {
    redis = await startRedisServer();
    [a, b] = await Promise.all([
      startReplica('A', redis.url, 'replicas'),
      startReplica('B', redis.url, 'replicas'),
    ]);
    // The first delivery of each event fails, every repetition succeeds (WEBHOOK-RETRY).
    receiver = await startReceiverFailingFirst(new Set());
    expect((await a.call('PUT', '/_ofkit/clock/', { now: START, frozen: true })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await receiver?.close();
    await redis?.stop();
  });

  it('one clock: a move through B is what A reads', async () => {
    expect((await b.call('GET', '/_ofkit/clock/')).body).toEqual({ now: START, frozen: true });
    expect((await b.call('POST', '/_ofkit/clock/advance/', { seconds: 60 })).status).toBe(200);
    expect((await a.call('GET', '/_ofkit/clock/')).body.now).toBe('2026-11-02T12:01:00.000Z');
  });

  it('LINK-MFA-428: registered on A, resumed on B, and a second resume on A is refused', async () => {
    const paused = await register(a, 'mfa-user');
    expect(paused.status).toBe(428);
    const { session, link } = paused.body[0];
    const resumed = await b.call('PATCH', '/api/links/', { session, link, token: '123456' });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: link, status: 'valid' });
    const again = await a.call('PATCH', '/api/links/', { session, link, token: '123456' });
    expect(again.body[0]).toMatchObject({ code: 'session_expired' });
  });

  it('LINK-REFRESH-COOLDOWN: refreshed on A, B answers 409', async () => {
    const { id } = (await register(a)).body;
    expect((await a.call('POST', `/api/links/${id}/refresh/`)).status).toBe(202);
    const refused = await b.call('POST', `/api/links/${id}/refresh/`);
    expect(refused.status).toBe(409);
    expect(refused.body[0].code).toBe('refresh_cooldown');
  });

  it('DELETE-RATE-LIMIT: five deletions spread over both, the sixth gets 429', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await register(i % 2 ? a : b)).body.id);
    const statuses: number[] = [];
    for (const [i, id] of ids.entries())
      statuses.push((await (i % 2 ? b : a).call('DELETE', `/api/links/${id}/`)).status);
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
    // Past the minute (on the shared clock) the window has room again.
    await a.call('POST', '/_ofkit/clock/advance/', { seconds: 61 });
    expect((await b.call('DELETE', `/api/links/${ids[5]}/`)).status).toBe(204);
  });

  it('ERR-500-408: a fault armed through A fails the next request on B, once', async () => {
    const armed = await a.call('POST', '/_ofkit/faults/', { operation_id: 'listInstitutions', status: 500 });
    expect(armed.status).toBe(201);
    const failed = await b.call('GET', '/api/institutions/');
    expect(failed.status).toBe(500);
    expect(failed.body[0].code).toBe('internal_server_error');
    expect((await a.call('GET', '/api/institutions/')).status).toBe(200);
    expect((await b.call('GET', '/_ofkit/faults/')).body).toEqual([]);
  });

  it('LINK-DELETE-ASYNC and WEBHOOK-RETRY: the deletion runs once, its event is repeated once', async () => {
    const webhook = {
      url: receiver.url,
      mode: 'deliver',
      retry_interval_seconds: 60,
      environment: 'production',
    };
    expect((await a.call('PUT', '/_ofkit/webhooks/', webhook)).status).toBe(200);
    const { id } = (await register(b)).body;
    const accepted = await a.call('DELETE', `/api/links/${id}/`, undefined, {
      'x-service-request-mode': 'async',
    });
    expect(accepted.status).toBe(202);
    // Both replicas move the clock past the deletion at once: one of them runs it.
    await Promise.all([
      a.call('POST', '/_ofkit/clock/advance/', { seconds: 5 }),
      b.call('GET', '/api/links/'),
    ]);
    await b.call('POST', '/_ofkit/clock/advance/', { seconds: 1 });
    expect((await a.call('GET', `/api/links/${id}/`)).status).toBe(404);
    const deleted = () =>
      receiver.received.filter((d) => d.body?.webhook_code === 'link_deleted' && d.body?.link_id === id);
    await until(() => deleted().length === 1);
    // The repetition falls due 60 s later: moved through B, delivered by one replica only.
    await b.call('POST', '/_ofkit/clock/advance/', { seconds: 60 });
    await a.call('POST', '/_ofkit/clock/advance/', { seconds: 600 });
    await until(() => deleted().length === 2);
    await settle();
    expect(deleted()).toHaveLength(2);
    expect(new Set(deleted().map((d) => d.body.webhook_id)).size).toBe(1);
    const events = (await b.call('GET', '/_ofkit/events/')).body;
    const logged = (events.results ?? events).filter(
      (e: { payload: { link_id?: string; webhook_code: string } }) =>
        e.payload.webhook_code === 'link_deleted' && e.payload.link_id === id,
    );
    expect(logged).toHaveLength(1);
    expect(logged[0].status).toBe('delivered');
  });

  it('A killed mid-run: B carries on with nothing lost', async () => {
    const links = (await a.call('GET', '/api/links/')).body.results.map((l: { id: string }) => l.id);
    const clock = (await a.call('GET', '/_ofkit/clock/')).body;
    await a.kill();
    expect((await b.call('GET', '/api/links/')).body.results.map((l: { id: string }) => l.id)).toEqual(links);
    expect((await b.call('GET', '/_ofkit/clock/')).body).toEqual(clock);
    const { id } = (await register(b)).body;
    expect((await b.call('GET', `/api/links/${id}/`)).status).toBe(200);
  });
});

/** A receiver that answers 500 to the first delivery of each webhook id and 200 to the others. */
async function startReceiverFailingFirst(firstSeen: Set<string>): Promise<TestReceiver> {
  const holder: { receiver?: TestReceiver } = {};
  holder.receiver = await startReceiver((n) => {
    const id = holder.receiver?.received[n - 1]?.body?.webhook_id as string | undefined;
    if (id === undefined || firstSeen.has(id)) return 200;
    firstSeen.add(id);
    return 500;
  });
  return holder.receiver;
}

/** Waits (at most 10 s of real time) until `done()`; deliveries travel over loopback sockets. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
}

/** Lets deliveries in flight arrive before a count is final. */
const settle = () => new Promise((r) => setTimeout(r, 500));
