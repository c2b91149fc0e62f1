/**
 * The client judge's log per key is bounded like the simulator's: a long recording keeps the latest
 * entries, counts the rest, and the judge's report and its summary say how many were dropped.
 */
import { describe, expect, it } from 'vitest';
import { consoleSummary } from '../../../simulator/src/judge/judge.js';
import { loadBridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';
import { createClientJudge } from './client-judge.js';
import { viewExchange } from './exchange-view.js';

const document = loadBridgeDocument();
const AUTH = `Basic ${Buffer.from('k:s').toString('base64')}`;

function institutionsRead(index: number, status: number): Exchange {
  return {
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 1,
    request: {
      method: 'GET',
      url: `http://api.test/api/institutions/?page=${index + 1}`,
      headers: [['authorization', AUTH]],
    },
    response: { status, statusText: '', headers: [['content-type', 'application/json']], body: '[]' },
  };
}

function judged(statuses: readonly number[], maxRequests: number) {
  const judge = createClientJudge(maxRequests);
  for (const [index, status] of statuses.entries())
    judge.observe(viewExchange(document, institutionsRead(index, status), index, ''));
  return judge.reports()[0]!;
}

const retryVerdict = (report: ReturnType<typeof judged>) =>
  report.verdicts.find((verdict) => verdict.rule === 'CLIENT-RETRY-5XX')!.verdict;

describe("the client judge's bounded log", () => {
  it('keeps every request under the bound, and drops none', () => {
    const report = judged([200, 200, 200], 3);
    expect(report.requests).toBe(3);
    expect(report.dropped).toBe(0);
    expect(consoleSummary([report])).toContain('(3 requests, 0 deliveries');
  });

  it('judges the latest requests past the bound and counts the older ones, at every length', () => {
    for (const length of [4, 5, 6, 7, 11]) {
      const report = judged(
        Array.from({ length }, () => 200),
        3,
      );
      expect(report.requests).toBe(3);
      expect(report.dropped).toBe(length - 3);
      expect(consoleSummary([report])).toContain(
        `(3 requests, ${length - 3} older requests dropped by the log's bound`,
      );
    }
  });

  it('judges on what is left: an unretried 503 the bound dropped is no longer seen', () => {
    // CLIENT-RETRY-5XX: a 503 that is never retried is a violation while the log holds it.
    expect(retryVerdict(judged([200, 200, 503], 3))).toBe('violated');
    expect(retryVerdict(judged([503, 200, 200, 200, 200, 200], 3))).toBe('not_exercised');
  });
});
