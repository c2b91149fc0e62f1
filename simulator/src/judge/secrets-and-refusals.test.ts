/**
 * CLIENT-NO-SECRETS in every header but Authorization (the key's secret, a link's password) and in the
 * URL; CLIENT-NO-RETRY-4XX for requests refused for authentication, counted per key id apart from the
 * tenant's log. Careless and careful clients over HTTP; nothing secret ever shows in what is kept.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { basicAuthorization } from '../../../openapi/config/api-keys.js';
import { type JudgeBench, KEY, startJudgeBench } from '../../test-support/judge-harness.js';
import { REFUSALS_KEPT } from './auth-refusals.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('secrets-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
});

const BANK_PASSWORD = 'bank-pass-7781';
const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: BANK_PASSWORD };
const verdictOf = async (rule: string) => (await bench.verdicts('order-only'))[rule]!;
const rotatedOut = { authorization: basicAuthorization(KEY.secretId, 'rotated-out-secret') };

/** The report and the log, as one text: what anyone reading them sees. */
async function everythingKept(): Promise<string> {
  const report = await bench.control('GET', '/_ofkit/judge/');
  const log = await bench.control('GET', '/_ofkit/requests/');
  return JSON.stringify([report.body, log.body]);
}

describe('CLIENT-NO-SECRETS', () => {
  it('violated: the secret in a custom header on every request, and nothing kept shows it', async () => {
    for (const path of ['/api/institutions/', '/api/links/'])
      expect((await bench.api('GET', path, undefined, { 'x-api-secret': KEY.secretPassword })).status).toBe(
        200,
      );
    const verdict = await verdictOf('CLIENT-NO-SECRETS');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.summary).toContain('2 request(s)');
    expect(verdict.evidence[0]).toContain('credentials in the header x-api-secret');
    expect(await everythingKept()).not.toContain(KEY.secretPassword);
  });
  it("violated: a link's password in a header and in the query, after the registration that carried it", async () => {
    expect((await bench.api('POST', '/api/links/', LINK_BODY)).status).toBe(201);
    await bench.api('GET', '/api/links/', undefined, {
      'x-bank-credentials': `76109277673:${BANK_PASSWORD}`,
    });
    await bench.api('GET', `/api/institutions/?hint=${BANK_PASSWORD}`);
    const verdict = await verdictOf('CLIENT-NO-SECRETS');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence.join('\n')).toContain('header x-bank-credentials');
    expect(verdict.evidence.join('\n')).toContain('credentials in the query');
    // The registration itself carried the password where it belongs, masked in the log.
    expect(verdict.summary).toContain('2 request(s)');
  });
  it('followed: custom headers that name the key or say nothing secret, the password only in its body', async () => {
    expect((await bench.api('POST', '/api/links/', LINK_BODY)).status).toBe(201);
    const headers = {
      'x-client-id': KEY.secretId,
      'x-request-tag': 'nightly-sync',
      'user-agent': 'careful/1.0',
    };
    expect((await bench.api('GET', '/api/links/', undefined, headers)).status).toBe(200);
    expect((await verdictOf('CLIENT-NO-SECRETS')).verdict).toBe('followed');
  });
});

describe('CLIENT-NO-RETRY-4XX: requests refused for authentication', () => {
  it('violated: a worker resends a request 12 times after 401 with a rotated-out secret', async () => {
    for (let i = 0; i < 12; i += 1)
      expect((await bench.api('GET', '/api/links/', undefined, rotatedOut)).status).toBe(401);
    const verdict = await verdictOf('CLIENT-NO-RETRY-4XX');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.summary).toContain('1 request(s) sent again more than twice after a 401');
    expect(verdict.evidence[0]).toContain('refused 401 12 times');
    expect(verdict.evidence[0]).not.toContain('rotated-out-secret');
    // Not in the tenant's log: the refused requests have no tenant.
    expect((await bench.control('GET', '/_ofkit/requests/')).body.requests).toEqual([]);
  });
  it('followed: tried again twice with a reloaded key, then stopped', async () => {
    for (let i = 0; i < 3; i += 1) await bench.api('GET', '/api/links/', undefined, rotatedOut);
    const verdict = await verdictOf('CLIENT-NO-RETRY-4XX');
    expect(verdict).toMatchObject({
      verdict: 'followed',
      summary: '3 40x answer(s), none sent again unchanged.',
    });
  });
  it("a stranger cannot flush a tenant's evidence, nor reach another key's count", async () => {
    for (let i = 0; i < 5; i += 1) await bench.api('GET', '/api/links/', undefined, rotatedOut);
    // One-off refusals under the same key id, more than the counter keeps.
    for (let i = 0; i < REFUSALS_KEPT * 2; i += 1)
      await bench.api('GET', `/api/links/?probe=${i}`, undefined, rotatedOut);
    const stranger = { authorization: basicAuthorization('no-such-key', 'guess') };
    for (let i = 0; i < 5; i += 1) await bench.api('GET', '/api/links/', undefined, stranger);
    const verdict = await verdictOf('CLIENT-NO-RETRY-4XX');
    expect(verdict.verdict).toBe('violated');
    expect(verdict.evidence[0]).toContain('refused 401 5 times');
    await bench.control('POST', '/_ofkit/reset/');
    expect((await verdictOf('CLIENT-NO-RETRY-4XX')).verdict).toBe('not_exercised');
  });
});
