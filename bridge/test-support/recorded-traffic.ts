/**
 * Test support: traffic as the proxy hands it to the recording (each exchange with its bodies as the
 * chunks of bytes they came in), kept in a file as gzip JSON with each body as its UTF-8 text, so a
 * test and the bench can feed the recording the same exchanges without a server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ProxiedExchange } from '../src/exchange/exchange.js';

type Message = ProxiedExchange['request'] | ProxiedExchange['response'];
type Saved<M> = Omit<M, 'bodyChunks'> & { bodyText?: string };
interface SavedExchange extends Omit<ProxiedExchange, 'request' | 'response'> {
  request: Saved<ProxiedExchange['request']>;
  response: Saved<ProxiedExchange['response']>;
}

function saved<M extends Message>(message: M): Saved<M> {
  const { bodyChunks, ...rest } = message;
  return bodyChunks === undefined ? rest : { ...rest, bodyText: Buffer.concat(bodyChunks).toString('utf8') };
}

function loaded<M extends Message>(message: Saved<M>): M {
  const { bodyText, ...rest } = message;
  return (bodyText === undefined ? rest : { ...rest, bodyChunks: [Buffer.from(bodyText)] }) as M;
}

/** Writes `exchanges` to `path` (gzip JSON). */
export function saveTraffic(path: string, exchanges: readonly ProxiedExchange[]): void {
  const list: SavedExchange[] = exchanges.map((exchange) => ({
    ...exchange,
    request: saved(exchange.request),
    response: saved(exchange.response),
  }));
  writeFileSync(path, gzipSync(JSON.stringify(list, null, 1)));
}

/** The exchanges `saveTraffic` wrote, each body one chunk. */
export function loadTraffic(path: string): ProxiedExchange[] {
  const list = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as SavedExchange[];
  return list.map((exchange) => ({
    ...exchange,
    request: loaded(exchange.request),
    response: loaded(exchange.response),
  }));
}

/** `bytes` in a buffer of its own, as node:http reads an answer's chunk (never a pool's memory). */
export function ownedBuffer(bytes: Uint8Array): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/**
 * `exchange` with each answer chunk in a buffer of its own, as node:http reads them: what the proxy
 * moves to the recording's worker (a move leaves them empty, so each recording of it needs a copy).
 */
export function withOwnedChunks(exchange: ProxiedExchange): ProxiedExchange {
  const chunks = exchange.response.bodyChunks;
  if (chunks === undefined) return exchange;
  return { ...exchange, response: { ...exchange.response, bodyChunks: chunks.map(ownedBuffer) } };
}
