/**
 * What the proxy's thread moves to the recording's worker instead of copying: only memory an answer's
 * chunk covers whole (never a pool's, never one a view shares with other data, never the request's),
 * and the exchange the worker decodes is the same whether its chunks were moved or copied.
 */
import { join } from 'node:path';
import { MessageChannel, markAsUntransferable } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { loadTraffic } from '../../test-support/recorded-traffic.js';
import { decodedExchange, type ProxiedExchange } from '../exchange/exchange.js';
import { movableBuffers, postExchange } from './worker-session.js';

const TRAFFIC = loadTraffic(
  join(import.meta.dirname, '../../test-support/fixtures/recorded-traffic.json.gz'),
);

/** A buffer of its own, as node:http reads an answer's chunk. */
function owned(content: string | Uint8Array): Buffer {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

const exchangeWith = (
  response: readonly Uint8Array[],
  request: readonly Uint8Array[] = [],
): ProxiedExchange => ({
  startedAt: '2026-12-07T00:00:00.000Z',
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1/links', headers: [], bodyChunks: request },
  response: { status: 200, statusText: 'OK', headers: [], bodyChunks: response },
});

/** The exchange with every chunk in memory of its own (the loaded traffic's may share a pool). */
const ownedCopy = (exchange: ProxiedExchange): ProxiedExchange => ({
  ...exchange,
  response: {
    ...exchange.response,
    ...(exchange.response.bodyChunks && {
      bodyChunks: exchange.response.bodyChunks.map(owned),
    }),
  },
});

describe('the buffers an exchange moves to the recording worker', () => {
  it('are the memory each answer chunk covers whole, once each', () => {
    const whole = owned('{"results":[');
    const large = owned('x'.repeat(10_000));
    const exchange = exchangeWith([whole, large.subarray(0, 5_000), Buffer.from('small, pooled'), whole]);
    expect(movableBuffers(exchange)).toEqual([whole.buffer]);
  });

  it('never include the request body, which the upstream may still be reading', () => {
    const request = owned('{"password":"x"}');
    expect(movableBuffers(exchangeWith([], [request]))).toEqual([]);
  });

  it('leave the worker the same exchange as copies did', () => {
    let movedBuffers = 0;
    for (const exchange of TRAFFIC) {
      const copied = decodedExchange(structuredClone(ownedCopy(exchange)));
      const moving = ownedCopy(exchange);
      const transfer = movableBuffers(moving);
      movedBuffers += transfer.length;
      const moved = decodedExchange(structuredClone(moving, { transfer }));
      expect(moved).toEqual(copied);
    }
    expect(movedBuffers).toBeGreaterThan(TRAFFIC.length / 2);
  });

  it('are copied when one was marked untransferable, and the exchange still arrives whole', async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const moving = owned('{"results":[1,');
      const kept = owned('2,3]}');
      markAsUntransferable(kept.buffer);
      const exchange = exchangeWith([moving, kept]);
      const received = new Promise<unknown>((resolve) => port2.once('message', resolve));
      postExchange(port1, { type: 'exchange', exchange, bytes: 1 });
      const message = (await received) as { exchange: ProxiedExchange };
      const text = Buffer.concat(message.exchange.response.bodyChunks ?? []).toString();
      expect(text).toBe('{"results":[1,2,3]}');
      // Untransferable memory stays here, whole; on Node 22 the message went again, every chunk copied.
      expect(kept.toString()).toBe('2,3]}');
    } finally {
      port1.close();
    }
  });
});
