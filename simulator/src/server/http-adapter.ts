/**
 * The only code that touches node:http: turns an IncomingMessage into a SimRequest, hands it to the core
 * and writes the SimResponse. Bodies over the limit are cut off while streaming, never buffered whole;
 * the snapshot import's body is parsed as it streams in. Every answer, the parser's refusals included,
 * is the API's error array (ERR-BODY).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, type ErrorCode } from '../core/api-error.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import { createIds, createRandom } from '../ids/seeded-ids.js';
import { renderErrors } from '../pipeline/serialize.js';
import { answerClientError, refuseConnect } from './client-error.js';
import { originOf, type RequestTarget, readTarget } from './request-target.js';
import { createReusedBuffers, type ReusedBuffers } from './reused-buffers.js';
import { readStreamedJson } from './streamed-json.js';

export interface HttpAdapterOptions {
  handle: (request: SimRequest) => Promise<SimResponse>;
  maxBodyBytes: number;
  /** `METHOD path` -> its own body limit; the body is parsed as it streams in (the snapshot import). */
  streamedBodies?: ReadonlyMap<string, number>;
}

/** A request that declares no body (RFC 9112 6.3: neither Content-Length nor Transfer-Encoding) has none. */
const declaresNoBody = (request: IncomingMessage) =>
  request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined;

async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  // Most requests (every GET) carry none: no stream to iterate, no buffer to join.
  if (declaresNoBody(request)) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep reading (and dropping) past the limit so the client sees our 413, not a reset.
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) return undefined;
  // Decoded from the chunk itself when there is one: the body is copied once, into its text.
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
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

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function toSimRequest(
  request: IncomingMessage,
  { path, query }: RequestTarget,
  host: string | undefined,
  options: HttpAdapterOptions,
  streamed: ReadonlyMap<string, number>,
): Promise<SimRequest> {
  const method = request.method ?? 'GET';
  const base = { method, path, query, headers: headersOf(request), origin: originOf(request, host) };
  const streamedLimit = streamed.get(`${method} ${path}`);
  if (streamedLimit !== undefined) {
    const { tooLarge, parsed } = await readStreamedJson(request, streamedLimit);
    const simRequest: SimRequest = { ...base, body: '', bodyLimit: streamedLimit };
    if (tooLarge) return { ...simRequest, bodyTooLarge: true };
    return parsed === undefined ? simRequest : { ...simRequest, parsedJson: parsed };
  }
  const body = await readBody(request, options.maxBodyBytes);
  // The core answers an oversize body with 413 in the error format.
  return body === undefined ? { ...base, body: '', bodyTooLarge: true } : { ...base, body };
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

async function write(response: ServerResponse, answer: SimResponse, buffers: ReusedBuffers): Promise<void> {
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.chunks !== undefined) {
    headers['content-length'] = answer.chunks.reduce((total, chunk) => total + chunk.length, 0);
    response.writeHead(answer.status, headers);
    for (const chunk of answer.chunks) {
      if (response.destroyed) return;
      if (!response.write(chunk)) await drained(response);
    }
    response.end();
    return;
  }
  // Encoded once: its length is the header, its bytes the body.
  const payload =
    answer.body === undefined
      ? undefined
      : (answer.serialize?.(buffers) ?? Buffer.from(JSON.stringify(answer.body)));
  if (payload !== undefined) headers['content-length'] = payload.length;
  response.writeHead(answer.status, headers);
  response.end(payload);
  // Only a serializer borrows. 'finish': every byte was handed to the OS (a client that left first
  // never gives the buffer back).
  if (payload !== undefined && answer.serialize !== undefined)
    response.once('finish', () => buffers.giveBack(payload));
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

export function createHttpServer(options: HttpAdapterOptions): Server {
  const streamed = options.streamedBodies ?? new Map<string, number>();
  // Ids of the answers the adapter writes itself (the core has its own stream).
  const adapterIds = createIds(createRandom('http-adapter/requests'));
  const requestId = () => adapterIds.hex(32);
  const buffers = createReusedBuffers();
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const read = readTarget(request);
      if ('problem' in read) return writeError(response, 'bad_request', read.problem, requestId());
      const simRequest = await toSimRequest(request, read.target, read.host, options, streamed);
      const loopback = onLoopback(request);
      await write(
        response,
        await options.handle(loopback ? { ...simRequest, loopback } : simRequest),
        buffers,
      );
    } catch {
      writeError(response, 'internal_server_error', 'Internal server error.', requestId());
    }
  };
  // RFC 9112 3.2 (Host) is checked by readTarget, in the error format, not by Node with an empty 400.
  const server = createServer({ requireHostHeader: false }, serve);
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
