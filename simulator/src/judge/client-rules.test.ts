/**
 * Every client rule, with a deliberately misbehaving small client (judged `violated`) and a well-behaved
 * one (judged `followed`). The clients talk HTTP to the simulator on loopback; their sleeps move a fake
 * machine time, so retry waits are judged on `real` timing without any test waiting.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type JudgeBench, KEY, startJudgeBench } from '../../test-support/judge-harness.js';

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
const fault = (operation_id: string, status: number, count: number) =>
  bench.control('POST', '/_ofkit/faults/', { operation_id, status, count });
const newLink = async () => (await bench.api('POST', '/api/links/', LINK_BODY)).body.id as string;

/** A client that retries with the spec's waits (or not, or too fast). */
async function retrying(path: string, waitsSeconds: readonly number[]) {
  let answer = await bench.api('GET', path);
  for (const wait of waitsSeconds) {
    if (answer.status < 400) break;
    await bench.sleep(wait * 1000);
    answer = await bench.api('GET', path);
  }
  return answer;
}

describe('CLIENT-RETRY-5XX', () => {
  it('followed: retries after 3 and 6 s', async () => {
    await fault('listInstitutions', 500, 2);
    expect((await retrying('/api/institutions/', [3, 6])).status).toBe(200);
    expect((await verdictOf('CLIENT-RETRY-5XX')).verdict).toBe('followed');
  });
  it('violated: never retries a 500', async () => {
    await fault('listInstitutions', 500, 1);
    await retrying('/api/institutions/', []);
    const verdict = await verdictOf('CLIENT-RETRY-5XX');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence.join('\n')).toContain('never retried');
  });
  it('violated on real timing, followed on order-only: retries at once', async () => {
    await fault('listInstitutions', 500, 2);
    await retrying('/api/institutions/', [0, 0]);
    expect((await verdictOf('CLIENT-RETRY-5XX')).verdict).toBe('violated');
    expect((await verdictOf('CLIENT-RETRY-5XX', 'order-only')).verdict).toBe('followed');
  });
  it('violated: a sixth retry', async () => {
    await fault('listInstitutions', 500, 7);
    await retrying('/api/institutions/', [3, 6, 12, 24, 48, 96]);
    expect((await verdictOf('CLIENT-RETRY-5XX', 'order-only')).summary).toContain(
      'not retried as the policy says',
    );
  });
  it('a 408 may be left unretried', async () => {
    await fault('listInstitutions', 408, 1);
    await retrying('/api/institutions/', []);
    expect((await verdictOf('CLIENT-RETRY-5XX')).verdict).toBe('followed');
  });
});

describe('CLIENT-TOO-MANY-SESSIONS', () => {
  it('followed: retried after 3 s like a 50x', async () => {
    await fault('listInstitutions', 400, 1);
    const first = await bench.api('GET', '/api/institutions/');
    expect(first.body[0].code).toBe('too_many_sessions');
    await bench.sleep(3000);
    expect((await bench.api('GET', '/api/institutions/')).status).toBe(200);
    expect((await verdictOf('CLIENT-TOO-MANY-SESSIONS')).verdict).toBe('followed');
    expect((await verdictOf('CLIENT-NO-RETRY-4XX')).verdict).toBe('not_exercised');
  });
  it('violated: treated as a plain 40x', async () => {
    await fault('listInstitutions', 400, 1);
    await bench.api('GET', '/api/institutions/');
    expect((await verdictOf('CLIENT-TOO-MANY-SESSIONS')).verdict).toBe('violated');
  });
});

describe('CLIENT-NO-RETRY-4XX', () => {
  it('followed: a 400 is not sent again', async () => {
    expect((await bench.api('GET', '/api/transactions/')).status).toBe(400);
    expect((await verdictOf('CLIENT-NO-RETRY-4XX')).verdict).toBe('followed');
  });
  it('violated: the same 400 sent three times', async () => {
    for (let i = 0; i < 3; i += 1) await bench.api('GET', '/api/transactions/');
    const verdict = await verdictOf('CLIENT-NO-RETRY-4XX');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence[0]).toContain("curl -u $OFKIT_KEY:$OFKIT_SECRET -X GET 'http://127.0.0.1");
  });
});

describe('CLIENT-NO-SECRETS', () => {
  it('followed: credentials only in the Authorization header', async () => {
    await bench.api('GET', '/api/institutions/');
    expect((await verdictOf('CLIENT-NO-SECRETS')).verdict).toBe('followed');
  });
  it('violated: the secret in a query string, and the log never shows it', async () => {
    await bench.api('GET', `/api/institutions/?api_secret=${KEY.secretPassword}`);
    const verdict = await verdictOf('CLIENT-NO-SECRETS');
    expect(verdict.verdict).toBe('violated');
    const log = await bench.control('GET', '/_ofkit/requests/');
    const everything = JSON.stringify([verdict, log.body]);
    expect(everything).not.toContain(KEY.secretPassword);
    expect(everything).toContain('api_secret=$OFKIT_SECRET');
  });
});

describe('CLIENT-REFRESH-COOLDOWN', () => {
  async function refusedRefresh() {
    const link = await newLink();
    expect((await bench.api('POST', `/api/links/${link}/refresh/`)).status).toBe(202);
    expect((await bench.api('POST', `/api/links/${link}/refresh/`)).status).toBe(409);
    return link;
  }
  it('followed: waits the cooldown out after a 409', async () => {
    const link = await refusedRefresh();
    await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 600 });
    expect((await bench.api('POST', `/api/links/${link}/refresh/`)).status).toBe(202);
    expect((await verdictOf('CLIENT-REFRESH-COOLDOWN')).verdict).toBe('followed');
  });
  it('violated: refreshes again inside the cooldown', async () => {
    const link = await refusedRefresh();
    await bench.api('POST', `/api/links/${link}/refresh/`);
    expect((await verdictOf('CLIENT-REFRESH-COOLDOWN')).verdict).toBe('violated');
  });
});

describe('CLIENT-DELETE-RATE', () => {
  async function limited() {
    const links: string[] = [];
    for (let i = 0; i < 7; i += 1) links.push(await newLink());
    for (const link of links.slice(0, 5))
      expect((await bench.api('DELETE', `/api/links/${link}/`)).status).toBe(204);
    expect((await bench.api('DELETE', `/api/links/${links[5]}/`)).status).toBe(429);
    return links;
  }
  it('followed: waits for the window after a 429', async () => {
    const links = await limited();
    await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 60 });
    expect((await bench.api('DELETE', `/api/links/${links[6]}/`)).status).toBe(204);
    expect((await verdictOf('CLIENT-DELETE-RATE')).verdict).toBe('followed');
  });
  it('violated: a 429 storm', async () => {
    const links = await limited();
    await bench.api('DELETE', `/api/links/${links[6]}/`);
    expect((await verdictOf('CLIENT-DELETE-RATE')).verdict).toBe('violated');
  });
});

describe('CLIENT-MFA-RESUME', () => {
  async function paused() {
    await bench.control('POST', '/_ofkit/scenarios/', { scenario: 'institution_requires_token', count: 1 });
    const answer = await bench.api('POST', '/api/links/', LINK_BODY);
    expect(answer.status).toBe(428);
    return answer.body[0] as { session: string; link: string | null };
  }
  it('followed: resumed with its session in time', async () => {
    const { session, link } = await paused();
    const resumed = await bench.api('PATCH', '/api/links/', {
      session,
      token: '123456',
      ...(link && { link }),
    });
    expect(resumed.status).toBeLessThan(300);
    expect((await verdictOf('CLIENT-MFA-RESUME')).verdict).toBe('followed');
  });
  it('followed: abandoned', async () => {
    await paused();
    expect((await verdictOf('CLIENT-MFA-RESUME')).summary).toContain('1 abandoned');
  });
  it('violated: resumed after the session expired', async () => {
    const { session, link } = await paused();
    await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 601 });
    expect(
      (await bench.api('PATCH', '/api/links/', { session, token: '123456', ...(link && { link }) })).status,
    ).toBe(400);
    const verdict = await verdictOf('CLIENT-MFA-RESUME');
    expect(verdict.verdict).toBe('violated');
    // The MFA token is a credential of the end-user: masked in the evidence.
    expect(verdict.evidence.join('\n')).toContain('"token":"***"');
  });
});

describe('CLIENT-PAGINATION-NEXT', () => {
  it('followed: walks the list through `next`', async () => {
    let page = await bench.api('GET', '/api/institutions/?page_size=2');
    for (let i = 0; i < 2 && page.body.next; i += 1) {
      const next = new URL(page.body.next);
      page = await bench.api('GET', `${next.pathname}${next.search}`);
    }
    expect((await verdictOf('CLIENT-PAGINATION-NEXT')).verdict).toBe('followed');
  });
  it('violated: builds its own page URL (dropping page_size) and asks past the last page', async () => {
    await bench.api('GET', '/api/institutions/?page_size=2');
    await bench.api('GET', '/api/institutions/?page=2');
    await bench.api('GET', '/api/institutions/?page_size=2&page=999');
    const verdict = await verdictOf('CLIENT-PAGINATION-NEXT');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence.join('\n')).toContain('a page past the last');
  });
});
