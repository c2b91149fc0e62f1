/**
 * The transparent proxy in front of an implementation of the API: a client gets exactly what the
 * implementation answered (status, headers, body), except that absolute URLs to the implementation
 * point at the proxy and the body comes uncompressed (the proxy asks for identity so it can read it).
 * The request side is here; the answer side is relay-answer.ts; what the proxy refuses before a
 * request exists, client-refusals.ts. Each exchange is handed to `onExchange` as the implementation
 * saw it, after the answer went out: recording and checking never delay a client. A `Host` nobody
 * configured is refused as the simulator refuses it (openapi/security/host-check.ts: DNS rebinding),
 * and the rewritten URLs name only an accepted one.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { createHostCheck } from '../../../openapi/security/host-check.js';
import {
  type HeaderList,
  headerListOf,
  type ProxiedExchange,
  type UpstreamFailure,
} from '../exchange/exchange.js';
import { answerClientError, refuseConnect } from './client-refusals.js';
import { HOP_BY_HOP, type RelayContext, relayAnswer } from './relay-answer.js';
import { type BodyRewriter, jsonUrlRewriter } from './rewrite-urls.js';
import { failureBody, type UpstreamFailureAnswer, upstreamFailureOf } from './upstream-failure.js';
import type { UpstreamClient } from './upstream-request.js';

export interface RecordingProxyOptions {
  /** The implementation's base URL (scheme, host, optional base path; no trailing slash). */
  upstream: string;
  /** How the implementation is reached (upstream-client.ts). */
  client: UpstreamClient;
  /** Seconds to wait for the implementation's answer (headers, then each body chunk). */
  timeoutSeconds: number;
  /** Bodies larger than this are passed through but not recorded (nor rewritten). */
  maxRecordedBytes: number;
  /** Told of every exchange once its answer went out (the answer's body as the chunks that came: decodedExchange reads it). */
  onExchange(exchange: ProxiedExchange): void;
  /** The machine's time in ms (tests pass a fixed one). */
  now?: () => number;
  /** Host names answered besides localhost, *.localhost and IP literals (`--allowed-host`). */
  allowedHosts?: readonly string[];
}

export interface RecordingProxy {
  readonly server: Server;
  /** Its base URL, e.g. http://127.0.0.1:4020 (an IPv6 host in brackets). */
  readonly url: string;
  /** Stops listening and closes the connections. */
  close(): Promise<void>;
}

/**
 * A capped copy of the request body: its chunks (decoded where the exchange is read, as the answer's
 * are), `undefined` once it passed the cap.
 */
function collector(cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer) {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    },
    chunks: () => (size > cap || size === 0 ? undefined : chunks),
    over: () => size > cap,
  };
}

export async function startRecordingProxy(
  options: RecordingProxyOptions,
  port: number,
  host: string,
): Promise<RecordingProxy> {
  const now = options.now ?? Date.now;
  let failures = 0;
  const nextFailureId = () => `ofkit-proxy-${String(++failures).padStart(6, '0')}`;
  const rewriters = new Map<string, BodyRewriter>();
  const relay: RelayContext = {
    upstream: options.upstream,
    maxRecordedBytes: options.maxRecordedBytes,
    record: () => undefined,
    // One rewriter per origin the clients use (a bounded few), built once.
    rewriterFor(origin) {
      let rewriter = rewriters.get(origin);
      if (rewriter === undefined) {
        rewriter = jsonUrlRewriter(options.upstream, origin);
        if (rewriters.size < 16) rewriters.set(origin, rewriter);
      }
      return rewriter;
    },
  };
  const hostAllowed = createHostCheck({ allowedHosts: options.allowedHosts ?? [] });
  const server = createServer((incoming, response) => {
    const host = incoming.headers.host;
    if (host !== undefined && !hostAllowed(host)) {
      const message = `The proxy does not answer for the Host ${JSON.stringify(host)} (DNS rebinding is refused): start it with --allowed-host NAME to accept a name.`;
      incoming.resume();
      answerOwn(
        response,
        { status: 421, failure: { code: 'proxy_misdirected_request', message } },
        nextFailureId(),
      );
      return;
    }
    const path = originForm(incoming.url ?? '/');
    if (path === undefined) {
      const message = `The proxy forwards requests for a path (such as /api/links/); ${JSON.stringify(incoming.url)} is none.`;
      answerOwn(
        response,
        { status: 400, failure: { code: 'proxy_request_target', message } },
        nextFailureId(),
      );
      return;
    }
    forward(options, relay, now, nextFailureId, incoming, response, path).catch((error: Error) => {
      // A failure of the proxy's own never takes the proxy down.
      ownFailure(`${incoming.method} ${path}: the proxy failed`, error);
      if (response.headersSent) response.destroy();
      else {
        const failure = { code: 'proxy_internal_error', message: error.message };
        answerOwn(response, { status: 500, failure }, nextFailureId());
      }
    });
  });
  const url = () =>
    `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  server.on('clientError', answerClientError(nextFailureId));
  server.on('connect', refuseConnect(url, nextFailureId));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    url: url(),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The path and query a request names, or undefined when it names none. A client that takes the proxy
 * for a forward proxy sends the absolute form (`GET http://host/api/links/`), which a server must
 * accept (RFC 9112 3.2.2): its path goes to the implementation, as every request's does whatever its
 * Host. `OPTIONS *` (the asterisk form) names no resource of the API.
 */
function originForm(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return undefined;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}

/** An answer of the proxy's own: the API's error array, with a code that says it was the proxy; its text. */
function answerOwn(response: ServerResponse, answer: UpstreamFailureAnswer, requestId: string): string {
  const text = failureBody(answer, requestId);
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
  return text;
}

/** A failure of the proxy's own, on stderr (the traffic goes on). */
function ownFailure(what: string, error: unknown): void {
  console.error(`ofkit: ${what}: ${(error as Error)?.stack ?? String(error)}`);
}

/** The request as the implementation gets it: its headers but the connection's and accept-encoding. */
function outgoingHeaders(incoming: IncomingMessage): Record<string, string | string[]> {
  const outgoing: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!HOP_BY_HOP.has(name) && name !== 'accept-encoding' && value !== undefined) outgoing[name] = value;
  }
  return outgoing;
}

async function forward(
  options: RecordingProxyOptions,
  relay: RelayContext,
  now: () => number,
  nextFailureId: () => string,
  incoming: IncomingMessage,
  response: ServerResponse,
  path: string,
): Promise<void> {
  const started = now();
  const method = (incoming.method ?? 'GET').toUpperCase();
  const target = `${options.upstream}${path}`;
  const sent = collector(options.maxRecordedBytes);
  // A request has a body when it announces one (RFC 9112 6.3): a length or a transfer coding.
  const announced =
    incoming.headers['content-length'] !== undefined || incoming.headers['transfer-encoding'] !== undefined;
  const body = method === 'GET' || method === 'HEAD' || !announced ? undefined : new PassThrough();
  if (body) {
    incoming.on('data', (chunk: Buffer) => sent.add(chunk));
    incoming.pipe(body);
  }
  // Called once the answer went out (from a timer, for most): whatever fails in it is the recording's.
  const record = (answer: ProxiedExchange['response'], upstreamFailure?: UpstreamFailure) => {
    try {
      const bodyChunks = sent.chunks();
      options.onExchange({
        startedAt: new Date(started).toISOString(),
        durationMs: now() - started,
        request: {
          method,
          url: target,
          headers: headerListOf(incoming.rawHeaders),
          ...(bodyChunks !== undefined && { bodyChunks }),
          ...(sent.over() && { bodyOmitted: true }),
        },
        response: answer,
        ...(upstreamFailure && { upstreamFailure }),
      });
    } catch (error) {
      ownFailure(`${method} ${path}: the exchange could not be recorded`, error);
    }
  };
  try {
    const answer = await options.client.send({
      method,
      url: target,
      headers: outgoingHeaders(incoming),
      ...(body && { body }),
      timeoutMs: options.timeoutSeconds * 1000,
    });
    await relayAnswer({ ...relay, record }, incoming, response, answer);
  } catch (error) {
    answerFailure(error, options.upstream, nextFailureId(), response, record);
  }
}

/** The implementation failed: the client gets the API's error array from the proxy, and so does the recording. */
function answerFailure(
  error: unknown,
  upstream: string,
  requestId: string,
  response: ServerResponse,
  record: (answer: ProxiedExchange['response'], failure?: UpstreamFailure) => void,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const failure = upstreamFailureOf(error, upstream);
  const text = answerOwn(response, failure, requestId);
  const headers: HeaderList = [['content-type', 'application/json']];
  record(
    {
      status: failure.status,
      statusText: STATUS_CODES[failure.status] ?? '',
      headers,
      bodyChunks: [Buffer.from(text)],
    },
    failure.failure,
  );
}
