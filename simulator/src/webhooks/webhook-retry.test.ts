import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXED_NOW } from '../../test-support/contract-checked-simulator.js';
import { startReceiver, type TestReceiver } from '../../test-support/test-receiver.js';
import { type WebhookFixture, webhookFixture } from '../../test-support/webhook-fixture.js';
import type { RaisedEvent } from '../core/events.js';
import { listEvents } from './event-log.js';

let fx: WebhookFixture;
const receivers: TestReceiver[] = [];
const receiver = async (answer?: (n: number) => number | 'hang') => {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
};
beforeEach(() => {
  fx = webhookFixture();
});
/** A fixture whose attempts time out after 150 ms (network time), for the receivers that hang. */
const shortTimeout = async () => {
  await fx.close();
  fx = webhookFixture({ timeoutMs: 150 });
};
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await fx.hub.idle();
  await fx.close();
});

const INTERVAL_S = 30;
const event: RaisedEvent = {
  webhook_type: 'OWNERS',
  webhook_code: 'historical_update',
  link_id: '30cb4806-6e00-48a4-91c9-ca55968576c8',
  data: { total_owners: 1 },
};
const at = (seconds: number) => new Date(FIXED_NOW + seconds * 1000).toISOString();

/** Emits one event and walks the clock through `repetitions` backoff steps, checking each is on time. */
async function emitAndRetry(repetitions: number) {
  fx.tenant.emit(event);
  await fx.hub.idle();
  for (let n = 1; n <= repetitions; n++) {
    const before = (await fx.events())[0]?.attempts.length;
    // Repetition n waits n x the interval after the attempt before it, not a millisecond less.
    await fx.advance(n * INTERVAL_S * 1000 - 1);
    expect((await fx.events())[0]?.attempts.length).toBe(before);
    await fx.advance(1);
  }
  return (await fx.events())[0]!;
}

/** A receiver that holds every delivery until `answer()`, then acknowledges it (200). */
async function heldReceiver() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
  let received = 0;
  const server = createServer((request, response) => {
    received += 1;
    request.resume();
    arrived();
    void released.then(() => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, firstArrived, answer: release, received: () => received, close };
}

describe('WEBHOOK-RETRY', () => {
  it('an attempt answered 2xx is not repeated, even when the clock passes its repetition while the answer is on its way', async () => {
    const hooks = await heldReceiver();
    try {
      await fx.configure({ url: hooks.url, mode: 'deliver', retry_interval_seconds: INTERVAL_S });
      fx.tenant.emit(event);
      await hooks.firstArrived;
      // A day passes on the virtual clock while the receiver still holds the first attempt.
      const moving = fx.advance(24 * 3600 * 1000);
      hooks.answer();
      await moving;
      await fx.hub.idle();
      const [logged] = await fx.events();
      expect(logged?.status).toBe('delivered');
      expect(logged?.attempts.map((a) => a.status)).toEqual([200]);
      expect(hooks.received()).toBe(1);
    } finally {
      await hooks.close();
    }
  });

  it('repeats a non-2xx delivery with a linear backoff on the virtual clock until a 2xx (500 x4, then 200)', async () => {
    const hooks = await receiver((n) => (n <= 4 ? 500 : 200));
    await fx.configure({ url: hooks.url, mode: 'deliver', retry_interval_seconds: INTERVAL_S });
    const logged = await emitAndRetry(4);
    expect(logged.status).toBe('delivered');
    expect(logged.attempts.map((a) => [a.at, a.status, a.error])).toEqual([
      [at(0), 500, null],
      [at(30), 500, null],
      [at(90), 500, null],
      [at(180), 500, null],
      [at(300), 200, null],
    ]);
    expect(hooks.received).toHaveLength(5);
    expect(new Set(hooks.received.map((d) => d.body.webhook_id)).size).toBe(1);
    expect(await fx.tenant.clock.pendingJobs()).toBe(0);
  });

  it('after the first attempt and five repetitions without a 2xx, the event is failed and nothing more is sent', async () => {
    const hooks = await receiver(() => 503);
    await fx.configure({ url: hooks.url, mode: 'deliver', retry_interval_seconds: INTERVAL_S });
    const logged = await emitAndRetry(5);
    expect(logged.status).toBe('failed');
    expect(logged.attempts.map((a) => a.at)).toEqual([at(0), at(30), at(90), at(180), at(300), at(450)]);
    expect(logged.attempts.every((a) => a.status === 503)).toBe(true);
    await fx.advance(86_400_000);
    expect(hooks.received).toHaveLength(6);
    expect((await fx.events())[0]?.attempts).toHaveLength(6);
  });

  it('the interval defaults to 60 s', async () => {
    const hooks = await receiver((n) => (n === 1 ? 500 : 204));
    await fx.configure({ url: hooks.url, mode: 'deliver' });
    fx.tenant.emit(event);
    await fx.hub.idle();
    await fx.advance(59_999);
    expect(hooks.received).toHaveLength(1);
    await fx.advance(1);
    expect((await fx.events())[0]).toMatchObject({ status: 'delivered', attempts: [{}, { at: at(60) }] });
  });

  it('a receiver that hangs is timed out, and the attempt says so', async () => {
    await shortTimeout();
    const hooks = await receiver(() => 'hang');
    await fx.configure({ url: hooks.url, mode: 'deliver' });
    fx.tenant.emit(event);
    const [logged] = await fx.events();
    expect(logged?.status).toBe('pending');
    expect(logged?.attempts).toEqual([{ at: at(0), status: null, error: 'timed out', duration_ms: 0 }]);
    expect(await fx.tenant.clock.pendingJobs()).toBe(1);
  });

  it('a refused connection is a failed attempt, told coarsely (never the socket error text)', async () => {
    const closed = await startReceiver();
    await closed.close();
    await fx.configure({ url: closed.url, mode: 'deliver' });
    fx.tenant.emit(event);
    const [logged] = await fx.events();
    expect(logged?.attempts[0]).toMatchObject({
      status: null,
      error: 'no answer (the connection failed or closed)',
    });
  });

  it('emit returns at once, and a hanging receiver of one tenant never holds up another tenant', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    await fx.configure({ url: hanging.url, mode: 'deliver' });
    await fx.configure({ url: healthy.url, mode: 'deliver' }, fx.other);
    fx.tenant.emit(event);
    fx.other.emit(event);
    expect(healthy.received).toHaveLength(0);
    await fx.hub.idle(fx.other);
    expect(healthy.received).toHaveLength(1);
    expect((await listEvents(fx.tenant))[0]?.attempts).toEqual([]);
    await hanging.close();
    expect((await fx.events())[0]?.attempts[0]).toMatchObject({ status: null, error: expect.any(String) });
  });

  it('a repetition run twice (its replica died sending, another took the job over) sends the same webhook_id', async () => {
    const hooks = await receiver((n) => (n === 1 ? 500 : 200));
    await fx.configure({ url: hooks.url, mode: 'deliver', retry_interval_seconds: INTERVAL_S });
    fx.tenant.emit(event);
    await fx.hub.idle();
    const [retry] = await fx.tenant.store.upcomingJobs(5);
    expect(retry).toMatchObject({ kind: 'webhook retry', args: { number: 2 } });
    // Both runs find the event pending: both send it, as the provider's retries do, under one id.
    await Promise.all([fx.jobs.run(fx.tenant, retry!), fx.jobs.run(fx.tenant, retry!)]);
    await fx.hub.idle();
    const [logged] = await fx.events();
    expect(logged?.status).toBe('delivered');
    expect(logged?.attempts.map((attempt) => attempt.status)).toEqual([500, 200, 200]);
    expect(hooks.received.map((d) => d.body.webhook_id)).toEqual(Array(3).fill(logged?.payload.webhook_id));
    // Once delivered, a later run sends nothing.
    await fx.jobs.run(fx.tenant, retry!);
    await fx.hub.idle();
    expect(hooks.received).toHaveLength(3);
  });

  it('an event raised again under its id (a job run again) is logged once and delivered once', async () => {
    const hooks = await receiver();
    await fx.configure({ url: hooks.url, mode: 'deliver' });
    const id = 'a'.repeat(32);
    await fx.tenant.emit({ ...event, id });
    await fx.hub.idle();
    await fx.tenant.emit({ ...event, id });
    await fx.hub.idle();
    expect(
      (await fx.events()).map((logged) => [logged.id, logged.payload.webhook_id, logged.status]),
    ).toEqual([[id, id, 'delivered']]);
    expect(hooks.received).toHaveLength(1);
    // Its repetition, scheduled before the first attempt was sent, went with the 2xx.
    expect(await fx.tenant.clock.pendingJobs()).toBe(0);
  });
});
