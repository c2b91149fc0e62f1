/**
 * The link rules, each with a careless client (judged `violated`) and a careful one (`followed`):
 * CLIENT-NO-DUPLICATE-LINKS, CLIENT-UPDATE-MODE and CLIENT-MFA-RESUME's re-registrations. The clients
 * talk HTTP to the simulator on loopback; every answer is checked against the document.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEARER, type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('link-rules-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
  expect((await bench.control('PUT', '/_ofkit/webhooks/', { url: null })).status).toBe(200);
});

const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
const verdictOf = async (rule: string) => (await bench.verdicts('order-only'))[rule]!;
const register = (body: Record<string, unknown> = LINK_BODY) => bench.api('POST', '/api/links/', body);
const newLink = async (body?: Record<string, unknown>) => {
  const created = await register(body);
  expect(created.status).toBe(201);
  return created.body.id as string;
};

describe('CLIENT-NO-DUPLICATE-LINKS', () => {
  it('violated: registers the same end-user again while the first link is valid', async () => {
    await newLink();
    await newLink();
    const verdict = await verdictOf('CLIENT-NO-DUPLICATE-LINKS');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence).toHaveLength(2);
    expect(verdict.evidence[1]).toContain('registered again');
  });
  it('followed: one link per end-user, another end-user, and again once the first was deleted', async () => {
    const first = await newLink();
    await newLink({ ...LINK_BODY, username: '76109277674' });
    await newLink({ ...LINK_BODY, institution: 'ofsat_mx_fiscal', username: 'ABCD123456XY1' });
    expect((await bench.api('DELETE', `/api/links/${first}/`)).status).toBe(204);
    await newLink();
    expect((await verdictOf('CLIENT-NO-DUPLICATE-LINKS')).verdict).toBe('followed');
  });
  it('followed: a suite that resets the tenant between its tests registers the same end-user in each', async () => {
    await newLink();
    await bench.control('POST', '/_ofkit/reset/');
    await newLink();
    expect((await verdictOf('CLIENT-NO-DUPLICATE-LINKS')).verdict).toBe('followed');
  });
});

describe('CLIENT-UPDATE-MODE', () => {
  const makeBroken = async (link: string, status: 'invalid' | 'token_required') =>
    expect((await bench.control('PUT', `/_ofkit/links/${link}/status/`, { status })).status).toBe(200);
  const retrieve = (path: string, body: Record<string, unknown>) => bench.api('POST', path, body);

  it('violated: retrieves a link refused for its credentials again, without new credentials', async () => {
    const link = await newLink();
    await makeBroken(link, 'invalid');
    expect((await retrieve('/api/accounts/', { link })).status).toBe(400);
    expect((await bench.api('POST', `/api/links/${link}/refresh/`)).status).toBe(202);
    const verdict = await verdictOf('CLIENT-UPDATE-MODE');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence.join('\n')).toContain('/refresh/');
  });
  it('followed: new credentials (PUT) before the next retrieval; reads of stored data stay allowed', async () => {
    const link = await newLink();
    expect((await retrieve('/api/accounts/', { link })).status).toBe(201);
    await makeBroken(link, 'invalid');
    expect((await retrieve('/api/accounts/', { link })).status).toBe(400);
    for (let i = 0; i < 3; i += 1)
      expect((await bench.api('GET', `/api/accounts/?link=${link}`)).status).toBe(200);
    expect((await bench.api('PUT', `/api/links/${link}/`, { password: 'new-secret' })).status).toBe(200);
    expect((await retrieve('/api/accounts/', { link })).status).toBe(201);
    expect((await retrieve('/api/owners/', { link })).status).toBe(201);
    const verdict = await verdictOf('CLIENT-UPDATE-MODE');
    expect(verdict).toMatchObject({ verdict: 'followed', summary: expect.stringContaining('1 broken link') });
  });
  it('violated: after the LINK invalid_credentials event, two retrievals and no PUT', async () => {
    bench.receiver.behaviour = () => 200;
    await bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl, bearer_token: BEARER });
    const link = await newLink({ ...LINK_BODY, access_mode: 'recurrent' });
    await makeBroken(link, 'invalid');
    await bench.simulator.webhooks.idle();
    await retrieve('/api/transactions/', { link, date_from: '2026-10-01', date_to: '2026-10-31' });
    await retrieve('/api/accounts/', { link });
    const verdict = await verdictOf('CLIENT-UPDATE-MODE');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence[0]).toContain('webhook LINK invalid_credentials');
  });
  it('violated and followed on a token_required link: the 428 retried as a retrieval, or resumed', async () => {
    const link = await newLink();
    await makeBroken(link, 'token_required');
    expect((await retrieve('/api/accounts/', { link })).status).toBe(428);
    // The careful way: the retrieval's 428 resumed with the token.
    const paused = await retrieve('/api/owners/', { link });
    expect(paused.status).toBe(428);
    expect((await verdictOf('CLIENT-UPDATE-MODE')).verdict).toBe('not_exercised');
    const { session } = paused.body[0];
    expect((await bench.api('PATCH', '/api/owners/', { session, token: '123456', link })).status).toBe(201);
    // The link's status, read, shows it still needs a token; two retrievals without a resume.
    expect((await bench.api('GET', `/api/links/${link}/`)).body.status).toBe('token_required');
    await retrieve('/api/accounts/', { link });
    await retrieve('/api/accounts/', { link });
    expect((await verdictOf('CLIENT-UPDATE-MODE')).verdict).toBe('violated');
  });
});

describe('CLIENT-MFA-RESUME: registered again instead of resumed', () => {
  const everyRegistrationAsks = () =>
    bench.control('POST', '/_ofkit/scenarios/', { scenario: 'institution_requires_token' });

  it('violated: each 428 answered by registering the same end-user again', async () => {
    await everyRegistrationAsks();
    for (let i = 0; i < 3; i += 1) expect((await register()).status).toBe(428);
    const verdict = await verdictOf('CLIENT-MFA-RESUME');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.summary).toContain('2 registration(s) made again instead of resuming a 428');
    const links = await bench.api('GET', '/api/links/');
    expect(links.body.results.map((l: { status: string }) => l.status)).toEqual([
      'unconfirmed',
      'unconfirmed',
      'unconfirmed',
    ]);
  });
  it('followed: the 428 resumed; a 428 abandoned; a registration once the session expired', async () => {
    await everyRegistrationAsks();
    const paused = (await register()).body[0];
    const resumed = await bench.api('PATCH', '/api/links/', {
      session: paused.session,
      token: '123456',
      link: paused.link,
    });
    expect(resumed.status).toBe(200);
    await register({ ...LINK_BODY, username: '76109277674' });
    await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 601 });
    expect((await register({ ...LINK_BODY, username: '76109277674' })).status).toBe(428);
    const verdict = await verdictOf('CLIENT-MFA-RESUME');
    expect(verdict).toMatchObject({
      verdict: 'followed',
      summary: expect.stringContaining('none registered again'),
    });
  });
});
