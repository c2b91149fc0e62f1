/**
 * The webhook receiver's rules and the follow-up reads, each with a misbehaving receiver or client
 * (judged `violated`) and a well-behaved one (`followed`); and the request log's contract shape.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEARER, type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';

let bench: JudgeBench;
// Starting a simulator (and its Prism fallback) takes seconds on a loaded machine.
beforeAll(async () => {
  bench = await startJudgeBench();
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
  expect((await bench.control('PUT', '/_ofkit/webhooks/', { url: null })).status).toBe(200);
});

const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
const verdictOf = async (rule: string, timing: 'real' | 'order-only' = 'real') =>
  (await bench.verdicts(timing))[rule]!;
const newLink = async () => (await bench.api('POST', '/api/links/', LINK_BODY)).body.id as string;

describe('webhook receiver rules', () => {
  async function deliverEvents() {
    await bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl, bearer_token: BEARER });
    const link = await newLink();
    expect((await bench.api('POST', `/api/links/${link}/refresh/`)).status).toBe(202);
    await bench.simulator.webhooks.idle();
    return link;
  }
  it('CLIENT-WEBHOOK-ACK followed (2xx) and violated (500)', async () => {
    bench.receiver.behaviour = (_p, auth) => (auth ? 200 : 401);
    await deliverEvents();
    expect((await verdictOf('CLIENT-WEBHOOK-ACK')).verdict).toBe('followed');
    await bench.control('POST', '/_ofkit/reset/');
    bench.receiver.behaviour = () => 500;
    await deliverEvents();
    expect((await verdictOf('CLIENT-WEBHOOK-ACK')).verdict).toBe('violated');
  });
  it('CLIENT-WEBHOOK-BEARER followed (forged refused) and violated (forged accepted)', async () => {
    bench.receiver.behaviour = (_p, auth) => (auth === `Bearer ${BEARER}` ? 200 : 401);
    await deliverEvents();
    const probe = await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'forged_delivery' });
    expect(probe.body).toMatchObject({ kind: 'forged', status: 401 });
    expect((await verdictOf('CLIENT-WEBHOOK-BEARER')).verdict).toBe('followed');
    bench.receiver.behaviour = () => 200;
    await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'forged_delivery' });
    expect((await verdictOf('CLIENT-WEBHOOK-BEARER')).verdict).toBe('violated');
  });
  it('CLIENT-WEBHOOK-DUPLICATE followed (2xx again) and violated (409 on a seen webhook_id)', async () => {
    const seen = new Set<unknown>();
    bench.receiver.behaviour = (payload) => {
      if (seen.has(payload.webhook_id)) return 409;
      seen.add(payload.webhook_id);
      return 200;
    };
    await deliverEvents();
    await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'duplicate_delivery' });
    expect((await verdictOf('CLIENT-WEBHOOK-DUPLICATE')).verdict).toBe('violated');
    bench.receiver.behaviour = () => 200;
    await bench.control('POST', '/_ofkit/reset/');
    await deliverEvents();
    await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'duplicate_delivery' });
    expect((await verdictOf('CLIENT-WEBHOOK-DUPLICATE')).verdict).toBe('followed');
  });
  it('CLIENT-WEBHOOK-DUPLICATE warning: the repeated event read again; followed: read once', async () => {
    bench.receiver.behaviour = () => 200;
    bench.receiver.seen.length = 0;
    const link = await deliverEvents();
    const readFor: Record<string, string> = {
      ACCOUNTS: '/api/accounts/',
      TRANSACTIONS: '/api/transactions/',
      OWNERS: '/api/owners/',
    };
    for (const path of new Set(bench.receiver.seen.map((p) => readFor[String(p.webhook_type)])))
      if (path) await bench.api('GET', `${path}?link=${link}`);
    const probe = await bench.control('POST', '/_ofkit/judge/probes/', { probe: 'duplicate_delivery' });
    expect(probe.body).toMatchObject({ kind: 'duplicate', status: 200 });
    expect((await verdictOf('CLIENT-WEBHOOK-DUPLICATE')).verdict).toBe('followed');
    const repeated = bench.receiver.seen.at(-1)!;
    // A further page of the same list is the same read, not the event processed again.
    await bench.api('GET', `${readFor[String(repeated.webhook_type)]}?link=${link}&page=2&page_size=1`);
    expect((await verdictOf('CLIENT-WEBHOOK-DUPLICATE')).verdict).toBe('followed');
    await bench.api('GET', `${readFor[String(repeated.webhook_type)]}?link=${link}`);
    const verdict = await verdictOf('CLIENT-WEBHOOK-DUPLICATE');
    expect(verdict).toMatchObject({
      verdict: 'warning',
      summary: expect.stringContaining('processed twice?'),
    });
    expect(verdict.evidence[1]).toContain('the follow-up read made again (2 times)');
  });
  it('CLIENT-WEBHOOK-FOLLOW-UP followed (reads what each event announces) and violated (reads nothing)', async () => {
    bench.receiver.behaviour = () => 200;
    bench.receiver.seen.length = 0;
    const link = await deliverEvents();
    expect((await verdictOf('CLIENT-WEBHOOK-FOLLOW-UP')).verdict).toBe('violated');
    const types = new Set(bench.receiver.seen.map((p) => p.webhook_type));
    for (const [type, path] of [
      ['ACCOUNTS', '/api/accounts/'],
      ['TRANSACTIONS', '/api/transactions/'],
      ['OWNERS', '/api/owners/'],
    ]) {
      if (types.has(type)) await bench.api('GET', `${path}?link=${link}`);
    }
    expect((await verdictOf('CLIENT-WEBHOOK-FOLLOW-UP')).verdict).toBe('followed');
  });
});

describe('request log', () => {
  it('keeps the contract shape, skips /_ofkit/, names the rule of a 4xx, and starts afresh on a reset', async () => {
    const link = await newLink();
    await bench.api('POST', `/api/links/${link}/refresh/`);
    await bench.api('POST', `/api/links/${link}/refresh/`);
    const log = await bench.control('GET', '/_ofkit/requests/?limit=2');
    expect(log.body.requests.map((r: { operation_id: string }) => r.operation_id)).toEqual([
      'registerLink',
      'refreshLink',
    ]);
    const rest = await bench.control('GET', `/_ofkit/requests/?after=${log.body.next_after}`);
    expect(rest.body.requests[0]).toMatchObject({
      status: 409,
      error_code: 'refresh_cooldown',
      rule: 'LINK-REFRESH-COOLDOWN',
      query: '',
    });
    expect(rest.body.dropped).toBe(0);
    const registered = log.body.requests[0];
    expect(registered.curl).toContain(`"password":"***"`);
    expect(registered.body_sha256).toMatch(/^[0-9a-f]{64}$/);
    await bench.control('POST', '/_ofkit/reset/');
    const afresh = (await bench.control('GET', '/_ofkit/requests/')).body;
    expect(afresh).toMatchObject({ requests: [], dropped: 0 });
    // Where to go on from: past the reset, so a reader polling with it sees only what comes next.
    expect(afresh.next_after).toBeGreaterThan(rest.body.next_after);
  });
});
