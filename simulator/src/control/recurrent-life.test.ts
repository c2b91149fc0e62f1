/**
 * A recurrent link's weeks on the virtual clock: the script plays the days (the daily refreshes' new,
 * changed and deleted transactions, a historical update, credentials turning invalid, a token required,
 * the link deleted) while a long-running client with a webhook receiver lives through them, a day at a
 * time; the judge then judges the whole run. A careful client mends the link each time (PUT); a careless
 * one keeps retrieving it (CLIENT-UPDATE-MODE violated), so the token step finds it still invalid.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEARER, type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';
import { lifeSteps } from './recurrent-life.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('recurrent-life-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
  const frozen = { now: '2026-11-02T12:00:00.000Z', frozen: true };
  expect((await bench.control('PUT', '/_ofkit/clock/', frozen)).status).toBe(200);
  bench.receiver.behaviour = () => 200;
  bench.receiver.seen.length = 0;
  await bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl, bearer_token: BEARER });
});

const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };

async function recurrentLink(): Promise<string> {
  const created = await bench.api('POST', '/api/links/', { ...LINK_BODY, access_mode: 'recurrent' });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** A worker with a receiver: a day at a time, it answers what the day's events ask (as `careful` says). */
async function liveThrough(link: string, careful: boolean) {
  let heard = 0;
  for (let day = 0; day < 10; day += 1) {
    await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 86_400 });
    await bench.simulator.webhooks.idle();
    const fresh = bench.receiver.seen.slice(heard);
    heard = bench.receiver.seen.length;
    for (const event of fresh.filter((e) => e.webhook_type === 'LINK' && e.link_id === link)) {
      if (event.webhook_code === 'link_deleted') continue;
      if (careful) {
        const token = event.webhook_code === 'token_required' ? { token: '123456' } : {};
        expect((await bench.api('PUT', `/api/links/${link}/`, { password: 'secret', ...token })).status).toBe(
          200,
        );
      } else for (let i = 0; i < 2; i += 1) await bench.api('POST', '/api/accounts/', { link });
    }
    const [life] = (await bench.control('GET', '/_ofkit/recurrent-lives/')).body;
    if (life.finished) return life;
  }
  throw new Error('the script did not end in ten days');
}

const codes = () => bench.receiver.seen.map((e) => `${e.webhook_type} ${e.webhook_code}`);

describe('a recurrent link`s weeks on the virtual clock', () => {
  it('plays each day of the link`s life; a careful client mends the link each time and follows the rules', async () => {
    const link = await recurrentLink();
    const started = await bench.control('POST', '/_ofkit/recurrent-lives/', { link, days: 6 });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      link,
      days: 6,
      finished: false,
      ends_at: '2026-11-08T07:00:00.000Z',
    });
    const life = await liveThrough(link, true);
    expect(life.steps.map((s: { outcome: string }) => s.outcome)).toEqual(['done', 'done', 'done', 'done']);
    for (const code of [
      'TRANSACTIONS historical_update',
      'TRANSACTIONS new_transactions_available',
      'TRANSACTIONS transactions_updated',
      'TRANSACTIONS transactions_deleted',
      'LINK invalid_credentials',
      'LINK token_required',
      'LINK link_deleted',
    ])
      expect(codes()).toContain(code);
    expect(codes().indexOf('LINK invalid_credentials')).toBeLessThan(codes().indexOf('LINK token_required'));
    expect((await bench.api('GET', `/api/links/${link}/`)).status).toBe(404);
    const verdicts = await bench.verdicts('order-only');
    expect(verdicts['CLIENT-UPDATE-MODE']).toMatchObject({ verdict: 'followed' });
    expect(verdicts['CLIENT-NO-DUPLICATE-LINKS']).toMatchObject({ verdict: 'followed' });
  });
  it('a careless client retrieves the broken link again: CLIENT-UPDATE-MODE violated, the token step skipped', async () => {
    const link = await recurrentLink();
    await bench.control('POST', '/_ofkit/recurrent-lives/', { link, days: 6 });
    const life = await liveThrough(link, false);
    expect(life.steps.map((s: { outcome: string }) => s.outcome)).toEqual([
      'done',
      'done',
      'skipped',
      'done',
    ]);
    expect(codes()).not.toContain('LINK token_required');
    expect((await bench.verdicts('order-only'))['CLIENT-UPDATE-MODE']?.verdict).toBe('violated');
  });
  it('refuses a link that is not a valid recurrent one, and one it does not know', async () => {
    const single = await bench.api('POST', '/api/links/', LINK_BODY);
    const refused = await bench.control('POST', '/_ofkit/recurrent-lives/', { link: single.body.id });
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'invalid', field: 'link' });
    const unknown = { link: '00000000-0000-4000-8000-000000000000' };
    expect((await bench.control('POST', '/_ofkit/recurrent-lives/', unknown)).status).toBe(404);
    expect((await bench.control('GET', '/_ofkit/recurrent-lives/')).body).toEqual([]);
  });
  it('the steps around each day`s refresh, as a function', () => {
    const steps = lifeSteps(Date.parse('2026-11-02T12:00:00.000Z'), 28, '06:00');
    expect(steps.map((s) => `${s.day} ${s.at} ${s.action}`)).toEqual([
      '1 2026-11-03T07:00:00.000Z historical_update',
      '10 2026-11-12T05:59:00.000Z credentials_invalid',
      '19 2026-11-21T05:59:00.000Z token_required',
      '28 2026-11-30T07:00:00.000Z link_deleted',
    ]);
  });
});
