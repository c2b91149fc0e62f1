/**
 * CLIENT-WEBHOOK-FOLLOW-UP orders a receiver's read after the event by the machine's time as well as by
 * the log: a receiver that acknowledges and reads at once has its read logged before the simulator has
 * logged the attempt's answer, and it did follow the event up.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedDelivery, ObservedRequest } from './request-log.js';
import { judgeFollowUp } from './webhook-rules.js';

const LINK = 'de13fc4e-8da7-4e8f-bec9-2a8eb5f499d3';

function delivery(seq: number, sentRealMs?: number): ObservedDelivery {
  return {
    seq,
    at: '2026-11-02T12:00:00.000Z',
    kind: 'delivery',
    webhook_id: 'w1',
    webhook_type: 'ACCOUNTS',
    webhook_code: 'historical_update',
    link_id: LINK,
    data: {},
    attempt: 1,
    status: 200,
    error: null,
    duration_ms: 5,
    ...(sentRealMs !== undefined && { sent_real_ms: sentRealMs }),
  };
}

const read = (seq: number, realMs: number) =>
  ({
    entry: { seq, method: 'GET', path: '/api/accounts/', query: `link=${LINK}` },
    atMs: 0,
    realMs,
    secretsIn: [],
  }) as unknown as ObservedRequest;

describe('CLIENT-WEBHOOK-FOLLOW-UP and the order of a read', () => {
  it('a read logged before the attempt but begun after it was sent follows the event', () => {
    expect(judgeFollowUp([delivery(10, 1000)], [read(9, 1003)]).verdict).toBe('followed');
  });

  it('a read begun before the attempt was sent does not, nor one of a delivery without its send time', () => {
    expect(judgeFollowUp([delivery(10, 1000)], [read(9, 999)]).verdict).toBe('violated');
    expect(judgeFollowUp([delivery(10)], [read(9, 1003)]).verdict).toBe('violated');
  });

  it('a read logged after the attempt follows it, as before', () => {
    expect(judgeFollowUp([delivery(10, 1000)], [read(11, 900)]).verdict).toBe('followed');
  });
});
