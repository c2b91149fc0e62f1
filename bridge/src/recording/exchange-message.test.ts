/**
 * What the proxy's thread moves to the recording's worker instead of copying: only memory an answer's
 * chunk covers whole and alone (never a pool's, never one a view shares with other data or another
 * chunk, never the request's), as bare memory; and the exchange the worker decodes is the same whether
 * its chunks were moved or copied, whatever else ran in the process before (this file runs among the
 * unit lane's others, sharing their modules).
 */
import { join } from 'node:path';
import { MessageChannel, markAsUntransferable } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { loadTraffic, ownedBuffer, withOwnedChunks } from '../../test-support/recorded-traffic.js';
import { decodedExchange, type ProxiedExchange } from '../exchange/exchange.js';
import { arrivedExchange, type TravellingExchange, travellingExchange } from './exchange-message.js';
import { postExchange } from './worker-session.js';

const TRAFFIC = loadTraffic(
  join(import.meta.dirname, '../../test-support/fixtures/recorded-traffic.json.gz'),
);

/** A text in a buffer of its own, as node:http reads an answer's chunk. */
const owned = (text: string) => ownedBuffer(Buffer.from(text));

const exchangeWith = (
  response: readonly Uint8Array[],
  request: readonly Uint8Array[] = [],
): ProxiedExchange => ({
  startedAt: '2026-12-07T00:00:00.000Z',
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1/links', headers: [], bodyChunks: request },
  response: { status: 200, statusText: 'OK', headers: [], bodyChunks: response },
});

const bodyOf = (exchange: ProxiedExchange) => Buffer.concat(exchange.response.bodyChunks ?? []).toString();

describe('an exchange on its way to the recording worker', () => {
  it('moves the memory each answer chunk covers whole and alone, once each', () => {
    const whole = owned('{"results":[');
    const large = owned('x'.repeat(10_000));
    const shared = owned('shared by two views');
    const exchange = exchangeWith([
      whole,
      large.subarray(0, 5_000),
      Buffer.from('small, pooled'),
      shared,
      shared.subarray(0, 6),
    ]);
    const { exchange: travelling, transfer } = travellingExchange(exchange);
    expect(transfer).toEqual([whole.buffer]);
    expect(travelling.response.bodyChunks?.[0]).toBe(whole.buffer);
    expect(bodyOf(arrivedExchange(travelling))).toBe(bodyOf(exchange));
  });

  it('never moves the request body, which the upstream may still be reading', () => {
    const request = owned('{"password":"x"}');
    expect(travellingExchange(exchangeWith([], [request])).transfer).toEqual([]);
  });

  it('leaves the worker the same exchange as copies did', () => {
    let moved = 0;
    for (const exchange of TRAFFIC) {
      const copied = decodedExchange(structuredClone(withOwnedChunks(exchange)));
      const travelling = travellingExchange(withOwnedChunks(exchange));
      moved += travelling.transfer.length;
      const clone = structuredClone(travelling.exchange, { transfer: travelling.transfer });
      expect(decodedExchange(arrivedExchange(clone))).toEqual(copied);
    }
    expect(moved).toBeGreaterThan(TRAFFIC.length / 2);
  });

  it('copies memory marked untransferable, and the exchange still arrives whole', async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const moving = owned('{"results":[1,');
      const kept = owned('2,3]}');
      markAsUntransferable(kept.buffer);
      const received = new Promise<unknown>((resolve) => port2.once('message', resolve));
      postExchange(port1, exchangeWith([moving, kept]), 1);
      const message = (await received) as { exchange: TravellingExchange };
      expect(bodyOf(arrivedExchange(message.exchange))).toBe('{"results":[1,2,3]}');
      // Untransferable memory stays here, whole; on Node 22 the message went again, every chunk copied.
      expect(kept.toString()).toBe('2,3]}');
    } finally {
      port1.close();
    }
  });
});
