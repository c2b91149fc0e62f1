/**
 * The only code that touches node:http: turns an IncomingMessage into a SimRequest, hands it to the core
 * and writes the SimResponse. A `Host` this simulator does not answer for is refused on every route
 * (host-check.ts); a body is read only once the core admitted its caller from the headers, cut off
 * while streaming past its limit, the snapshot import's parsed as it streams in (request-body.ts). The
 * server's time-outs and connection cap bound what a slow or greedy client can hold. While several
 * connections are open, requests are handled and answered in turns (handler-turns.ts). Every answer,
 * the parser's refusals included, is the API's error array (ERR-BODY).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, type ErrorCode } from '../core/api-error.js';
import type { Admission, RequestHead, SimRequest, SimResponse } from '../core/http-types.js';
import { createIds, createRandom } from '../ids/seeded-ids.js';
import { renderErrors } from '../pipeline/serialize.js';
import { answerClientError, refuseConnect } from './client-error.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, serverTimeouts } from './connection-limits.js';
import { handlerTurns, nextTurn } from './handler-turns.js';
import { declaresNoBody, drainWithin, withBody } from './request-body.js';
import { originOf, readTarget } from './request-target.js';
import { createReusedBuffers, type ReusedBuffers } from './reused-buffers.js';

export interface HttpAdapterOptions {
  handle: (request: SimRequest) => Promise<SimResponse>;
  /**
   * Whether a request's body may be read, from its head (the core knows the caller first); without it
   * every body is read.
   */
  admit?: (head: RequestHead) => Promise<Admission>;
  maxBodyBytes: number;
  /** `METHOD path` -> its own body limit; the body is parsed as it streams in (the snapshot import). */
  streamedBodies?: ReadonlyMap<string, number>;
  /** Whether the simulator answers for a `Host` value (host-check.ts); default every one. */
  hostAllowed?: (host: string) => boolean;
  /** The base of pagination links when the simulator has a public URL (a reverse proxy's). */
  publicOrigin?: string;
  /** Time-outs and the connection cap; default DEFAULT_CONNECTION_LIMITS. */
  limits?: Partial<ConnectionLimits>;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
const isLoopbackAddress = (address: string | undefined) =>
  address !== undefined && /^(127\.|::1$|::ffff:127\.)/.test(address);

/**
 * Whether the server listens on loopback only and the client connects from it. The server's address
 * is read once per listen: reading it is a system call, too dear for every request.
 */
function loopbackCheck(server: Server): (request: IncomingMessage) => boolean {
  let boundToLoopback: boolean | undefined;
  server.on('listening', () => {
    boundToLoopback = undefined;
  });
  return (request) => {
    if (boundToLoopback === undefined) {
      const bound = server.address();
      boundToLoopback = isLoopbackAddress(
        typeof bound === 'object' && bound !== null ? bound.address : undefined,
      );
    }
    return boundToLoopback && isLoopbackAddress(request.socket.remoteAddress);
  };
}

/**
 * The request's headers, each one string. Node joins a repeated header into one value itself, except
 * `set-cookie` (an array): only then is the object copied; otherwise it is Node's own, not a copy per
 * request (nothing in the core changes a request's headers).
 */
function headersOf(request: IncomingMessage): Record<string, string> {
  const { headers } = request;
  const cookies = headers['set-cookie'];
  if (cookies === undefined) return headers as Record<string, string>;
  return { ...(headers as Record<string, string>), 'set-cookie': cookies.join(', ') };
}

/** Resolves when the response can take more, or has closed (a client gone away never drains). */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** An error the adapter answers itself, as the core renders errors (ERR-BODY). */
const errorAnswer = (code: ErrorCode, message: string, requestId: string): SimResponse =>
  renderErrors(apiError(code, { message }), requestId);

/** Writes chunks one at a time, each once the response can take it (a snapshot export). */
async function writeChunks(response: ServerResponse, chunks: readonly Buffer[]): Promise<void> {
  for (const chunk of chunks) {
    if (response.destroyed) return;
    if (!response.write(chunk)) await drained(response);
  }
  response.end();
}

/** Writes the answer; a promise only while chunks are still going out (one body is written at once). */
function write(
  response: ServerResponse,
  answer: SimResponse,
  buffers: ReusedBuffers,
): Promise<void> | undefined {
  // Copied member by member, not spread: the spread copies here and in `answer` cost about 5 us of CPU
  // per request on the adapter alone and about 17 us on GET of a link (bench CPU per request, medians of
  // five interleaved rounds).
  const headers: Record<string, string | number> = {};
  for (const name in answer.headers) headers[name] = answer.headers[name] as string;
  if (answer.chunks !== undefined) {
    headers['content-length'] = answer.chunks.reduce((total, chunk) => total + chunk.length, 0);
    response.writeHead(answer.status, headers);
    return writeChunks(response, answer.chunks);
  }
  // A serializer's bytes, or the JSON text: Node sends a text body in one write with the head, where a
  // Buffer is a second chunk (about 1.3 us less per small answer).
  const payload =
    answer.body === undefined ? undefined : (answer.serialize?.(buffers) ?? JSON.stringify(answer.body));
  if (payload !== undefined)
    headers['content-length'] = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  response.writeHead(answer.status, headers);
  response.end(payload);
  // Only a serializer borrows. 'finish': every byte was handed to the OS (a client that left first
  // never gives the buffer back).
  if (typeof payload === 'object' && answer.serialize !== undefined && buffers.lent(payload))
    response.once('finish', () => buffers.giveBack(payload));
  return undefined;
}

function writeError(response: ServerResponse, code: ErrorCode, message: string, requestId: string): void {
  const answer = renderErrors(apiError(code, { message }), requestId);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const payload = Buffer.from(JSON.stringify(answer.body));
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': payload.length,
    connection: 'close',
  });
  response.end(payload);
}

/** The answer to a request whose body is not read: the connection stays open only if the body drained. */
async function unread(request: IncomingMessage, answer: SimResponse): Promise<SimResponse> {
  if (declaresNoBody(request) || (await drainWithin(request))) return answer;
  return { ...answer, headers: { ...answer.headers, connection: 'close' } };
}

const refusedHost = (host: string) =>
  `This simulator does not answer for the Host ${JSON.stringify(host)} (DNS rebinding is refused): start it with --allowed-host NAME to accept a name, or --public-url URL.`;

export function createHttpServer(options: HttpAdapterOptions): Server {
  const streamed = options.streamedBodies ?? new Map<string, number>();
  const hostAllowed = options.hostAllowed ?? (() => true);
  // Ids of the answers the adapter writes itself (the core has its own stream).
  const adapterIds = createIds(createRandom('http-adapter/requests'));
  const requestId = () => adapterIds.hex(32);
  const buffers = createReusedBuffers();
  const answer = async (request: IncomingMessage): Promise<SimResponse> => {
    const read = readTarget(request);
    if ('problem' in read) return unread(request, errorAnswer('bad_request', read.problem, requestId()));
    if (read.host !== undefined && !hostAllowed(read.host))
      return unread(request, errorAnswer('misdirected_request', refusedHost(read.host), requestId()));
    const { path, query } = read.target;
    const method = request.method ?? 'GET';
    const headers = headersOf(request);
    const origin = options.publicOrigin ?? originOf(request, read.host);
    // The request without its body, written out member by member (not spread: see `write`): what
    // admission reads, and the whole request when there is no body to read.
    const head: SimRequest = onLoopback(request)
      ? { method, path, query, headers, origin, body: '', loopback: true }
      : { method, path, query, headers, origin, body: '' };
    const admission: Admission =
      options.admit && !declaresNoBody(request) ? await options.admit(head) : { read: true };
    if (!admission.read) return unread(request, admission.answer ?? (await options.handle(head)));
    const limit = streamed.get(`${method} ${path}`);
    // Most requests (every GET) declare no body: nothing to read, and no admission was asked for.
    if (limit === undefined && declaresNoBody(request)) return options.handle(head);
    try {
      return await options.handle(await withBody(request, head, options.maxBodyBytes, limit));
    } finally {
      await admission.done?.();
    }
  };
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    // With other connections open, handled after every ready one was read, and written after every
    // handler of that turn ran (handler-turns.ts).
    const inTurns = takesTurns(request);
    if (inTurns) await nextTurn();
    try {
      const answered = await answer(request);
      if (inTurns) await nextTurn();
      const writing = write(response, answered, buffers);
      if (writing !== undefined) await writing;
    } catch {
      writeError(response, 'internal_server_error', 'Internal server error.', requestId());
    }
  };
  // RFC 9112 3.2 (Host) is checked by readTarget, in the error format, not by Node with an empty 400.
  const server = createServer(
    { requireHostHeader: false, ...serverTimeouts({ ...DEFAULT_CONNECTION_LIMITS, ...options.limits }) },
    serve,
  );
  server.maxConnections = options.limits?.maxConnections ?? DEFAULT_CONNECTION_LIMITS.maxConnections;
  const takesTurns = handlerTurns(server);
  // A client may half-close right after its request (RFC 9112 9.6): node:http would end the socket as
  // soon as it reads that end, in the same poll, and an answer made in a later turn (handler-turns.ts),
  // or by a handler that awaits a store, could never be written. Half-open, the answer is written and
  // the socket ended after it.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  const onLoopback = loopbackCheck(server);
  // RFC 9110 10.1.1: an expectation other than 100-continue may be ignored; answering beats Node's bare 417.
  server.on('checkExpectation', serve);
  server.on('clientError', answerClientError(requestId));
  server.on('connect', refuseConnect(requestId));
  return server;
}

/** Listens on host:port (0 lets the OS choose) and resolves with the base URL. */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolve(`http://${host}:${address.port}`);
    });
  });
}
