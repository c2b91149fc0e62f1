/**
 * Deliveries held back and interleaved (`delivery_delay_seconds`, `delivery_order`): valid behaviours,
 * since the interface promises no time of arrival and no order. A held event is in the log at once with
 * `held_until` and reaches the receiver only once the tenant's clock passes it; `interleaved` sends the
 * events of different links and resources in another order than raised, each stream keeping its own.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../../test-support/api-harness.js';
import type { EventRecord } from './event-log.js';
import { interleave, releaseOf } from './held-deliveries.js';

let api: ApiHarness;
beforeEach(async () => {
  api = await apiHarness();
  await api.sim.call('PUT', '/_ofkit/clock/', { body: { now: '2026-11-02T12:00:00.000Z', frozen: true } });
});
afterEach(() => api.close());

const streams = (events: { webhook_type: string; link_id: string | null }[]) =>
  events.map((e) => `${e.link_id?.slice(0, 8)} ${e.webhook_type}`);

describe('webhooks delayed and interleaved', () => {
  it('held back: logged at once with held_until, delivered only after the client could read the data', async () => {
    expect((await api.configure({ delivery_delay_seconds: 120 })).body.delivery_delay_seconds).toBe(120);
    const link = await api.register({ access_mode: 'recurrent' });
    const logged = await api.events();
    expect(logged.length).toBeGreaterThan(0);
    expect(new Set(logged.map((e) => e.held_until))).toEqual(new Set(['2026-11-02T12:04:00.000Z']));
    expect(logged.every((e) => e.status === 'pending' && e.attempts.length === 0)).toBe(true);
    // The data the events announce is there to read before any notification.
    expect((await api.sim.call('GET', '/api/accounts/', { query: { link: link.id } })).status).toBe(200);
    expect(api.receiver.received).toEqual([]);
    await api.advance(180);
    expect(api.receiver.received).toEqual([]);
    await api.advance(60);
    expect(api.receiver.received.map((r) => r.body.webhook_id)).toEqual(
      logged.map((e) => e.payload.webhook_id),
    );
    expect((await api.events()).every((e) => e.status === 'delivered')).toBe(true);
  });
  it('interleaved: two links` events in another order than raised, each stream in its own order', async () => {
    await api.configure({ delivery_delay_seconds: 60, delivery_order: 'interleaved' });
    await api.register({ access_mode: 'recurrent' });
    await api.register({ access_mode: 'recurrent', username: '76109277674' });
    const raised = (await api.events()).map((e) => e.payload);
    await api.advance(120);
    const delivered = api.receiver.received.map((r) => r.body);
    expect(delivered).toHaveLength(raised.length);
    expect(streams(delivered)).not.toEqual(streams(raised));
    for (const stream of new Set(streams(raised))) {
      const ids = (list: typeof raised) =>
        list.filter((e) => streams([e])[0] === stream).map((e) => e.webhook_id);
      expect(ids(delivered)).toEqual(ids(raised));
    }
  });
  it('interleaving without a delay is refused: nothing is held to reorder', async () => {
    const refused = await api.configure({ delivery_order: 'interleaved' });
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'invalid', field: 'delivery_order' });
  });
  it('the release of a window and the interleaved order, as functions', () => {
    expect(releaseOf(Date.parse('2026-11-02T12:00:30.000Z'), 60)).toBe(
      Date.parse('2026-11-02T12:02:00.000Z'),
    );
    const event = (link: string, type: string, n: number) =>
      ({
        id: `${link}${type}${n}`,
        payload: { link_id: link, webhook_type: type },
      }) as unknown as EventRecord;
    const order = interleave([
      event('a', 'X', 1),
      event('a', 'X', 2),
      event('b', 'X', 1),
      event('a', 'Y', 1),
    ]);
    expect(order.map((e) => e.id)).toEqual(['aY1', 'bX1', 'aX1', 'aX2']);
  });
});
