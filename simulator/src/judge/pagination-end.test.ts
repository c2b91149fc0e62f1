/**
 * A list read to its end through `next` (what a situation of many pages requires of the client): a
 * client that reads the first page and stops has not met it; one that follows `next` to the page whose
 * `next` is null has. Read from a real log through the judge's door.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';
import { listFollowedToTheEnd } from './judge.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('pagination-end-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
});

const requirement = async () => listFollowedToTheEnd((await bench.sinceLastReset()).requests);

describe('CLIENT-PAGINATION-NEXT: a list read to its end', () => {
  it('not met: the first page read and reported as everything', async () => {
    expect((await bench.api('GET', '/api/institutions/?page_size=2')).body.next).not.toBeNull();
    expect(await requirement()).toEqual({
      met: false,
      summary:
        '1 list(s) had a next page; none was followed through `next` to the page whose `next` is null.',
      evidence: [],
    });
  });
  it('met: `next` followed to the page whose `next` is null', async () => {
    let page = await bench.api('GET', '/api/institutions/?page_size=3');
    let pages = 1;
    while (page.body.next) {
      const next = new URL(page.body.next);
      page = await bench.api('GET', `${next.pathname}${next.search}`);
      pages += 1;
    }
    const met = await requirement();
    expect(met).toMatchObject({
      met: true,
      summary: `A list of ${pages} pages was read to its end through \`next\`.`,
    });
    expect(met.evidence.at(-1)).toContain(`page=${pages}`);
  });
  it('not met: a list never longer than a page', async () => {
    await bench.api('GET', '/api/institutions/');
    expect((await requirement()).summary).toBe('No list longer than a page was read.');
  });
});
