/**
 * The transparent proxy in front of an implementation of the API: a client gets exactly what the
 * implementation answered (status, headers, body), except that absolute URLs to the implementation
 * point at the proxy (rewrite-urls.ts) and the body comes uncompressed (the proxy asks for identity
 * so it can read it). Each exchange is handed to `onExchange` as the implementation saw it, after the
 * answer went out: recording and checking never delay a client.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { PassThrough } from 'node:stream';
import { type Dispatcher, request as undiciRequest } from 'undici';
import type { Exchange, HeaderList } from '../exchange/exchange.js';
import { jsonUrlRewriter, rewriteBody, rewriteUrl } from './rewrite-urls.js';
import { failureBody, upstreamFailureOf } from './upstream-failure.js';

/** Headers of one connection, never forwarded (RFC 9110 7.6.1), and those the proxy sets itself. */
const HOP_BY_HOP = new Set([
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

export interface RecordingProxyOptions {
  /** The implementation's base URL (scheme, host, optional base path; no trailing slash). */
  upstream: string;
  dispatcher: Dispatcher;
  /** Seconds to wait for the implementation's answer (headers, then each body chunk). */
  timeoutSeconds: number;
  /** Bodies larger than this are passed through but not recorded (nor rewritten). */
  maxRecordedBytes: number;
  /** Told of every exchange once its answer went out. */
  onExchange(exchange: Exchange): void;
  /** The machine's time in ms (tests pass a fixed one). */
  now?: () => number;
}

export interface RecordingProxy {
  readonly server: Server;
  /** Stops listening and closes the connections to the implementation. */
  close(): Promise<void>;
}

function headerList(raw: readonly string[]): HeaderList {
  const list: [string, string][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    list.push([raw[index]!.toLowerCase(), raw[index + 1]!]);
  return list;
}

function answerHeaderList(headers: Record<string, string | string[] | undefined>): HeaderList {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => [name, one] as const),
  );
}

/** A capped copy of a stream's bytes: `undefined` once it passed the cap. */
function collector(cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  return {
    add(chunk: Buffer) {
      size += chunk.length;
      if (size > cap) over = true;
      else chunks.push(chunk);
    },
    text: () => (over ? undefined : Buffer.concat(chunks).toString('utf8')),
    size: () => size,
    over: () => over,
  };
}

export async function startRecordingProxy(
  options: RecordingProxyOptions,
  port: number,
  host: string,
): Promise<RecordingProxy> {
  const now = options.now ?? Date.now;
  let failures = 0;
  const handle = (incoming: IncomingMessage, response: ServerResponse) => {
    void forward(
      options,
      now,
      () => `ofkit-proxy-${String(++failures).padStart(6, '0')}`,
      incoming,
      response,
    );
  };
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function forward(
  options: RecordingProxyOptions,
  now: () => number,
  nextFailureId: () => string,
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = now();
  const method = (incoming.method ?? 'GET').toUpperCase();
  const target = `${options.upstream}${incoming.url ?? '/'}`;
  const requestHeaders = headerList(incoming.rawHeaders);
  const sent = collector(options.maxRecordedBytes);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? new PassThrough() : undefined;
  if (body) {
    incoming.on('data', (chunk: Buffer) => sent.add(chunk));
    incoming.pipe(body);
  }
  const outgoing: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!HOP_BY_HOP.has(name) && name !== 'accept-encoding' && value !== undefined) outgoing[name] = value;
  }
  const record = (exchange: Omit<Exchange, 'startedAt' | 'durationMs' | 'request'>) => {
    const requestBody = sent.text();
    options.onExchange({
      startedAt: new Date(started).toISOString(),
      durationMs: now() - started,
      request: {
        method,
        url: target,
        headers: requestHeaders,
        ...(requestBody !== undefined && requestBody !== '' && { body: requestBody }),
        ...(sent.over() && { bodyOmitted: true }),
      },
      ...exchange,
    });
  };
  try {
    const answer = await undiciRequest(target, {
      method: method as Dispatcher.HttpMethod,
      headers: outgoing,
      ...(body && { body }),
      dispatcher: options.dispatcher,
      headersTimeout: options.timeoutSeconds * 1000,
      bodyTimeout: options.timeoutSeconds * 1000,
    });
    await relay(options, incoming, response, answer, record);
  } catch (error) {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const failure = upstreamFailureOf(error, options.upstream);
    const text = failureBody(failure, nextFailureId());
    response.writeHead(failure.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
    record({
      response: {
        status: failure.status,
        statusText: STATUS_CODES[failure.status] ?? '',
        headers: [['content-type', 'application/json']],
        body: text,
      },
      upstreamFailure: failure.failure,
    });
  }
}

type Answer = Dispatcher.ResponseData;

/** Sends the implementation's answer on (rewritten when it is small enough to hold) and records it. */
async function relay(
  options: RecordingProxyOptions,
  incoming: IncomingMessage,
  response: ServerResponse,
  answer: Answer,
  record: (exchange: Omit<Exchange, 'startedAt' | 'durationMs' | 'request'>) => void,
): Promise<void> {
  const headers = answerHeaderList(answer.headers);
  const forwarded = headers.filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'content-length');
  const proxyOrigin = `http://${incoming.headers.host ?? 'localhost'}`;
  const rewrite = (value: string) => rewriteUrl(value, options.upstream, proxyOrigin);
  const sent = forwarded.map(
    ([name, value]) => [name, name === 'location' ? rewrite(value) : value] as const,
  );
  const chunks: Buffer[] = [];
  let size = 0;
  // One iterator for both loops: leaving a for-await early would destroy the body.
  const body = (answer.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  for (let next = await body.next(); !next.done; next = await body.next()) {
    size += next.value.length;
    chunks.push(next.value);
    if (size > options.maxRecordedBytes)
      return stream(response, answer.statusCode, answer.headers, body, sent, chunks, record);
  }
  const raw = Buffer.concat(chunks);
  const type = String(answer.headers['content-type'] ?? '');
  const encoding = String(answer.headers['content-encoding'] ?? '');
  const out = rewriteBody(raw, type, encoding, jsonUrlRewriter(options.upstream, proxyOrigin));
  response.writeHead(answer.statusCode, flatHeaders([...sent, ['content-length', String(out.length)]]));
  response.end(out);
  const text = raw.length === 0 ? undefined : raw.toString('utf8');
  // 'close' comes after the answer went out, or once the client left: either way it is recorded.
  response.once('close', () =>
    setImmediate(() =>
      record({
        response: {
          status: answer.statusCode,
          statusText: STATUS_CODES[answer.statusCode] ?? '',
          headers,
          ...(text !== undefined && { body: text }),
        },
      }),
    ),
  );
}

/** A body over the recording cap: passed on as it comes, recorded without it. */
async function stream(
  response: ServerResponse,
  status: number,
  answerHeaders: Answer['headers'],
  body: AsyncIterator<Buffer>,
  sent: HeaderList,
  held: Buffer[],
  record: (exchange: Omit<Exchange, 'startedAt' | 'durationMs' | 'request'>) => void,
): Promise<void> {
  const length = answerHeaders['content-length'];
  const lengthHeader = length === undefined ? [] : [['content-length', String(length)] as const];
  response.writeHead(status, flatHeaders([...sent, ...lengthHeader]));
  for (const chunk of held) response.write(chunk);
  for (let next = await body.next(); !next.done; next = await body.next()) {
    if (!response.write(next.value)) await new Promise((resolve) => response.once('drain', resolve));
  }
  response.end();
  const headers = answerHeaderList(answerHeaders);
  record({ response: { status, statusText: STATUS_CODES[status] ?? '', headers, bodyOmitted: true } });
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
