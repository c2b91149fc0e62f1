/**
 * A link's deletion happens once, whichever replicas and job runs race on it: one 204 of several
 * concurrent DELETEs, one `link_deleted` of several async requests, and a deletion job that runs again
 * (its replica lost the store halfway) raises the event it owes once, under the id it noted.
 */
import { describe, expect, it } from 'vitest';
import { contractCheckedSimulator } from '../../test-support/contract-checked-simulator.js';
import { MemoryStore } from '../store/memory-store.js';
import type { PutCondition, StoredRecord } from '../store/store.js';
import { StoreFailure } from '../store/store-failure.js';

/** A memory store whose next event-log write fails, as a lost Redis would fail it. */
class StoreLosingOneEventWrite extends MemoryStore {
  failNext = false;

  override async putIf(tenant: string, collection: string, record: StoredRecord, when: PutCondition) {
    if (this.failNext && collection === '_ofkit/events') {
      this.failNext = false;
      throw new StoreFailure('unavailable', 'Redis at redis://127.0.0.1:1/0 cannot be used: connection lost');
    }
    return super.putIf(tenant, collection, record, when);
  }
}

async function simulatorOn(store = new MemoryStore()) {
  const sim = await contractCheckedSimulator('link-deletion', { store });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    sim.call(method, path, { ...(body !== undefined && { body }), headers });
  return { call, tenant: sim.simulator.tenant('tenant-a') };
}

describe('LINK-DELETE-ASYNC', () => {
  it('a deletion job that lost the store after deleting runs again, and raises its link_deleted once', async () => {
    const store = new StoreLosingOneEventWrite();
    const { call, tenant } = await simulatorOn(store);
    const deletionJobs = async () =>
      (await tenant.clock.upcoming(10)).filter((job) => job.kind === 'async link deletion').length;
    const link = (
      await call('POST', '/api/links/', { institution: 'ofbank_br_retail', username: '761', password: 'p' })
    ).body;
    await call('DELETE', `/api/links/${link.id}/`, undefined, { 'x-service-request-mode': 'async' });
    store.failNext = true;
    await expect(tenant.clock.advance(1_000)).rejects.toBeInstanceOf(StoreFailure);
    // Deleted (the step before the event), the event owed noted, the job handed back.
    expect((await call('GET', `/api/links/${link.id}/`)).status).toBe(404);
    const [noted] = await tenant.store.list('_link_deletions');
    const owed = noted?.deletion as { link: string; event: string };
    expect(owed).toMatchObject({ link: link.id, event: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(await deletionJobs()).toBe(1);
    // The failed move wrote no clock: moved again, the job runs again and raises the event it owed,
    // under the id it noted; nothing happens twice.
    await tenant.clock.advance(1_000);
    const events = (await call('GET', '/_ofkit/events/?webhook_code=link_deleted')).body;
    expect(events.map((event: { id: string }) => event.id)).toEqual([owed.event]);
    await tenant.clock.advance(60_000);
    expect((await call('GET', '/_ofkit/events/?webhook_code=link_deleted')).body).toHaveLength(1);
    expect(await tenant.store.list('_link_deletions')).toEqual([]);
    expect(await deletionJobs()).toBe(0);
  });

  it('one link deleted asynchronously three times: deleted once, one link_deleted', async () => {
    const { call, tenant } = await simulatorOn();
    const link = (
      await call('POST', '/api/links/', { institution: 'ofbank_br_retail', username: '761', password: 'p' })
    ).body;
    const accepted = await Promise.all(
      [1, 2, 3].map(() =>
        call('DELETE', `/api/links/${link.id}/`, undefined, { 'x-service-request-mode': 'async' }),
      ),
    );
    expect(accepted.map((answer) => answer.status)).toEqual([202, 202, 202]);
    await tenant.clock.advance(1_000);
    const events = (await call('GET', '/_ofkit/events/?webhook_code=link_deleted')).body;
    expect(events.map((event: { payload: { link_id: string } }) => event.payload.link_id)).toEqual([link.id]);
  });
});

describe('LINK-DELETE-SYNC, DELETE-RATE-LIMIT', () => {
  it('one link deleted three times at once: one 204 and two 404s, one slot of the window', async () => {
    const { call } = await simulatorOn();
    const register = async () =>
      (await call('POST', '/api/links/', { institution: 'ofbank_br_retail', username: '761', password: 'p' }))
        .body.id;
    const [first, ...rest] = await Promise.all([1, 2, 3, 4, 5].map(register));
    const answers = await Promise.all([1, 2, 3].map(() => call('DELETE', `/api/links/${first}/`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 404, 404]);
    // Four more deletions fill the window of five; the sixth is refused.
    for (const id of rest) expect((await call('DELETE', `/api/links/${id}/`)).status).toBe(204);
    expect((await call('DELETE', `/api/links/${await register()}/`)).status).toBe(429);
  });
});
