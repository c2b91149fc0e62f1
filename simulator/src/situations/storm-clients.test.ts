/**
 * The forward-compatibility storm against two clients written as integrators write them: a tolerant
 * one (reads the members it knows, acknowledges every event, reads what the events it knows announce)
 * runs in the storm as in the baseline and breaks no more client rules; a strict one (checks every answer
 * against this version's document, closed objects and enumerations) passes the baseline and fails in the
 * storm, which is what the storm is for.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { checkAgainstDocument, documentChecker } from '../../test-support/contract-checked-simulator.js';
import { type Answer, BEARER, type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('storm-clients-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
  bench.receiver.behaviour = () => 200;
  bench.receiver.seen.length = 0;
  await bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl, bearer_token: BEARER });
});

const strictChecker = documentChecker(sharedBundledDocument('api'));

/** One request; a strict client refuses an answer its version's document does not describe. */
async function call(strict: boolean, method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await bench.api(method, path, body);
  if (strict) {
    const [route, query] = path.split('?');
    const response = { status: answer.status, headers: {}, body: answer.body };
    checkAgainstDocument(strictChecker, method, route ?? path, response, new URLSearchParams(query));
  }
  return answer;
}

/** The client's command: a recurrent link, its accounts and transactions page by page, the follow-ups. */
async function clientCommand(strict: boolean): Promise<void> {
  const link = await call(strict, 'POST', '/api/links/', {
    institution: 'ofbank_br_retail',
    username: '76109277673',
    password: 'secret',
    access_mode: 'recurrent',
  });
  if (link.status !== 201) throw new Error(`registration answered ${link.status}`);
  const id = link.body.id as string;
  await call(strict, 'POST', '/api/accounts/', { link: id });
  let next: string | null = `/api/transactions/?link=${id}&page_size=5`;
  for (let pages = 0; next && pages < 20; pages += 1) {
    const page: Answer = await call(strict, 'GET', next);
    if (page.status !== 200) throw new Error(`a page answered ${page.status}`);
    next = page.body.next
      ? new URL(page.body.next as string).pathname + new URL(page.body.next).search
      : null;
  }
  await bench.simulator.webhooks.idle();
  // The follow-up reads of the events it knows; an event it does not know is acknowledged and left.
  for (const event of bench.receiver.seen) {
    if (event.webhook_code !== 'historical_update') continue;
    const resource = String(event.webhook_type).toLowerCase();
    await call(strict, 'GET', `/api/${resource}/?link=${id}`);
  }
}

async function run(strict: boolean, storm: boolean) {
  await bench.control('PUT', '/_ofkit/storm/', { enabled: storm });
  let failure: string | null = null;
  try {
    await clientCommand(strict);
  } catch (error) {
    failure = (error as Error).message;
  }
  const verdicts = await bench.verdicts('order-only');
  const rulesJudged = (verdict: string) =>
    Object.values(verdicts)
      .filter((v) => v.verdict === verdict)
      .map((v) => v.rule);
  return { failure, violated: rulesJudged('violated'), followed: rulesJudged('followed') };
}

describe('the forward-compatibility storm against clients', () => {
  it('a tolerant client passes in the storm as in the baseline, with the same rules unviolated', async () => {
    const baseline = await run(false, false);
    expect(baseline.failure).toBeNull();
    await bench.control('POST', '/_ofkit/reset/');
    bench.receiver.seen.length = 0;
    const stormed = await run(false, true);
    expect(stormed.failure).toBeNull();
    expect(stormed.violated).toEqual(baseline.violated);
    expect(stormed.followed).toEqual(baseline.followed);
    expect(stormed.followed).toEqual(
      expect.arrayContaining(['CLIENT-PAGINATION-NEXT', 'CLIENT-WEBHOOK-ACK', 'CLIENT-NO-SECRETS']),
    );
    expect(bench.receiver.seen.some((e) => e.webhook_code === 'accounts_reclassified')).toBe(true);
  });
  it('a strict client passes the baseline and fails in the storm', async () => {
    expect((await run(true, false)).failure).toBeNull();
    await bench.control('POST', '/_ofkit/reset/');
    expect((await run(true, true)).failure).toMatch(/Contract violation/);
  });
});
