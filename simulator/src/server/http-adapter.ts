/**
 * The only code that touches node:http: turns an IncomingMessage into a SimRequest, hands it to the core
 * and writes the SimResponse. Bodies over the limit are cut off while streaming, never buffered whole.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimRequest, SimResponse } from '../core/http-types.js';

export interface HttpAdapterOptions {
  handle: (request: SimRequest) => Promise<SimResponse>;
  maxBodyBytes: number;
}

async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep reading (and dropping) past the limit so the client sees our 413, not a reset.
    if (size <= limit) chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  return size > limit ? undefined : body.toString('utf8');
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
const isLoopbackAddress = (address: string | undefined) =>
  address !== undefined && /^(127\.|::1$|::ffff:127\.)/.test(address);

/** The server listens on loopback only and the client connects from it. */
function onLoopback(server: Server, request: IncomingMessage): boolean {
  const bound = server.address();
  const local = typeof bound === 'object' && bound !== null ? bound.address : undefined;
  return isLoopbackAddress(local) && isLoopbackAddress(request.socket.remoteAddress);
}

function toSimRequest(request: IncomingMessage, body: string, overLimit: boolean): SimRequest {
  const host = request.headers.host ?? '127.0.0.1';
  const url = new URL(request.url ?? '/', `http://${host}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const simRequest: SimRequest = {
    method: request.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers,
    body,
    origin: `http://${host}`,
  };
  // The core answers an oversize body with 413 in the error format.
  return overLimit ? { ...simRequest, bodyTooLarge: true } : simRequest;
}

function write(response: ServerResponse, answer: SimResponse): void {
  // Encoded once: its length is the header, its bytes the body.
  const payload =
    answer.body === undefined
      ? undefined
      : (answer.serialize?.() ?? Buffer.from(JSON.stringify(answer.body)));
  const headers: Record<string, string | number> = { ...answer.headers };
  if (payload !== undefined) headers['content-length'] = payload.length;
  response.writeHead(answer.status, headers);
  response.end(payload);
}

export function createHttpServer(options: HttpAdapterOptions): Server {
  const server = createServer(async (request, response) => {
    try {
      const body = await readBody(request, options.maxBodyBytes);
      const simRequest = toSimRequest(request, body ?? '', body === undefined);
      const loopback = onLoopback(server, request);
      write(response, await options.handle(loopback ? { ...simRequest, loopback } : simRequest));
    } catch {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify([
          { request_id: 'adapter', message: 'Internal server error.', code: 'internal_server_error' },
        ]),
      );
    }
  });
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
