/** The request log's memory bound and its reading (`GET /_ofkit/requests/`'s `after`, `limit`, `dropped`). */
import { describe, expect, it } from 'vitest';
import {
  appendDelivery,
  appendRequest,
  MAX_DELIVERIES,
  MAX_REQUESTS,
  type ObservedDelivery,
  type ObservedRequest,
  readRequests,
  type TenantObservations,
} from './request-log.js';

const request = (seq: number) =>
  ({ entry: { seq }, atMs: 0, realMs: 0, secretsIn: [] }) as unknown as ObservedRequest;

describe('request log bound', () => {
  it('keeps at most 5500 requests, the latest, and counts the dropped', () => {
    const log: TenantObservations = { sequence: 0, requests: [], deliveries: [], dropped: 0 };
    for (let seq = 1; seq <= 12_000; seq += 1) appendRequest(log, request(seq));
    expect(log.requests.length).toBeGreaterThanOrEqual(MAX_REQUESTS);
    expect(log.requests.length).toBeLessThanOrEqual(MAX_REQUESTS * 1.1);
    expect(log.dropped + log.requests.length).toBe(12_000);
    expect(log.requests.at(-1)!.entry.seq).toBe(12_000);
    for (let seq = 1; seq <= MAX_DELIVERIES + 10; seq += 1) appendDelivery(log, { seq } as ObservedDelivery);
    expect(log.deliveries).toHaveLength(MAX_DELIVERIES);
  });

  it('reads after a seq, at most limit, and says where to go on from', () => {
    const log: TenantObservations = { sequence: 0, requests: [], deliveries: [], dropped: 0 };
    for (const seq of [2, 3, 5, 8]) appendRequest(log, request(seq));
    expect(readRequests(log, 2, 2)).toMatchObject({
      requests: [{ seq: 3 }, { seq: 5 }],
      next_after: 5,
      dropped: 0,
    });
    expect(readRequests(log, 8, 100)).toEqual({ requests: [], next_after: 8, dropped: 0 });
  });
});
