/**
 * The answer side of the recording proxy: the implementation's answer sent on as it came, with its
 * absolute URLs pointing at the proxy (rewrite-urls.ts) when the body is small enough to hold, passed
 * through untouched and recorded without its body when it is not. Recording happens once the answer is
 * out (or the client left).
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { contentCodingsOf, decodeBody } from '../../../openapi/http/content-coding.js';
import { type HeaderList, headerOf, type ProxiedExchange } from '../exchange/exchange.js';
import { type BodyRewriter, isJsonType, rewriteBody, rewriteUrl } from './rewrite-urls.js';
import type { UpstreamAnswer } from './upstream-request.js';

/** Headers of one connection, never forwarded (RFC 9110 7.6.1), and those the proxy sets itself. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

type Answer = UpstreamAnswer;

export interface RelayContext {
  upstream: string;
  maxRecordedBytes: number;
  /** The JSON rewriter towards a proxy origin (one per origin, built once). */
  rewriterFor(proxyOrigin: string): BodyRewriter;
  /** Records the answer as the implementation gave it. */
  record(response: ProxiedExchange['response']): void;
}

/** Node's header object: repeated headers (set-cookie) as arrays. */
function flatHeaders(list: HeaderList): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of list) {
    const existing = out[name];
    out[name] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return out;
}

const statusText = (status: number) => STATUS_CODES[status] ?? '';

/** Sends the implementation's answer on and records it. */
export async function relayAnswer(
  context: RelayContext,
  incoming: IncomingMessage,
  response: ServerResponse,
  answer: Answer,
): Promise<void> {
  const { headers } = answer;
  const proxyOrigin = `http://${incoming.headers.host ?? 'localhost'}`;
  const sent = headers
    .filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'content-length')
    .map(
      ([name, value]) =>
        [name, name === 'location' ? rewriteUrl(value, context.upstream, proxyOrigin) : value] as const,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  // One iterator for both loops: leaving a for-await early would destroy the body.
  const { body } = answer;
  for (let next = await body.next(); !next.done; next = await body.next()) {
    size += next.value.length;
    chunks.push(next.value);
    if (size > context.maxRecordedBytes) return stream(context, response, answer, body, sent, chunks);
  }
  const type = headerOf(headers, 'content-type') ?? '';
  const out = decodedForRewriting(chunks, headers, type, sent, context.maxRecordedBytes);
  const pieces = rewriteBody(out.chunks, type, out.encoding, context.rewriterFor(proxyOrigin));
  response.writeHead(answer.statusCode, flatHeaders([...out.sent, ...lengthOf(incoming, answer, pieces)]));
  // The pieces go out in one write (views of the chunks as they came: nothing joined, nothing copied).
  response.cork();
  for (const piece of pieces) response.write(piece);
  response.end();
  // 'close' comes after the answer went out, or once the client left: either way it is recorded.
  response.once('close', () =>
    setImmediate(() =>
      context.record({
        status: answer.statusCode,
        statusText: statusText(answer.statusCode),
        headers,
        ...(size > 0 && { bodyChunks: chunks }),
      }),
    ),
  );
}

/**
 * A JSON answer the implementation compressed although the proxy asked for identity: its absolute URLs
 * can point at the proxy only once it is decoded, else a client following `next` would leave the proxy
 * (and the recording) for the implementation. So it goes on decoded, its `content-encoding` dropped: an
 * intermediary may undo a content coding (RFC 9110 8.4) unless the answer says `no-transform`, and a
 * client that accepts a coding accepts identity. Anything else goes on as it came.
 */
function decodedForRewriting(
  chunks: Buffer[],
  headers: HeaderList,
  type: string,
  sent: HeaderList,
  maxBytes: number,
): { chunks: Buffer[]; sent: HeaderList; encoding: string } {
  const encoding = headerOf(headers, 'content-encoding') ?? '';
  const asCame = { chunks, sent, encoding };
  if (contentCodingsOf(headers).length === 0 || !isJsonType(type)) return asCame;
  if (/\bno-transform\b/i.test(headerOf(headers, 'cache-control') ?? '')) return asCame;
  const decoded = decodeBody(chunks, headers, maxBytes);
  if (!('text' in decoded)) return asCame;
  return {
    chunks: [Buffer.from(decoded.text)],
    sent: sent.filter(([name]) => name !== 'content-encoding'),
    encoding: '',
  };
}

/**
 * The content-length the client gets: the length of the pieces sent, except where no body follows the
 * header (HEAD, 204, 304), where the implementation's own header, if it sent one, goes on as it was.
 */
function lengthOf(incoming: IncomingMessage, answer: Answer, pieces: readonly Buffer[]): HeaderList {
  if (incoming.method === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304) {
    const announced = headerOf(answer.headers, 'content-length');
    return announced === undefined ? [] : [['content-length', announced]];
  }
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return [['content-length', String(length)]];
}

/** A body over the recording cap: passed on as it comes, recorded without it. */
async function stream(
  context: RelayContext,
  response: ServerResponse,
  answer: Answer,
  body: AsyncIterator<Buffer>,
  sent: HeaderList,
  held: Buffer[],
): Promise<void> {
  const length = headerOf(answer.headers, 'content-length');
  const lengthHeader = length === undefined ? [] : [['content-length', length] as const];
  response.writeHead(answer.statusCode, flatHeaders([...sent, ...lengthHeader]));
  for (const chunk of held) response.write(chunk);
  for (let next = await body.next(); !next.done; next = await body.next()) {
    if (!response.write(next.value)) await new Promise((resolve) => response.once('drain', resolve));
  }
  response.end();
  context.record({
    status: answer.statusCode,
    statusText: statusText(answer.statusCode),
    headers: answer.headers,
    bodyOmitted: true,
  });
}
