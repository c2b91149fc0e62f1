/**
 * The implementation reached directly through node:http(s), sockets kept alive between requests. A
 * time-out is the socket's idle time: no headers, or no next chunk of the body, within it.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { headerListOf } from '../exchange/exchange.js';
import type { UpstreamAnswer, UpstreamClient, UpstreamRequest } from './upstream-request.js';

/** The error a request that got no answer (or no next chunk) in time ends with. */
function upstreamTimeout(timeoutMs: number): Error {
  return Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' });
}

/**
 * A body without a length goes in chunks. node:http frames no body of its own for DELETE (nor OPTIONS),
 * so that is asked for here; undici frames a streamed body itself and refuses the header.
 */
function framed(request: UpstreamRequest): Record<string, string | string[]> {
  if (request.body === undefined || request.headers['content-length'] !== undefined) return request.headers;
  return { ...request.headers, 'transfer-encoding': 'chunked' };
}

/** The body's chunks; a failure after a time-out is told as the time-out. */
async function* chunksOf(answer: IncomingMessage, timedOut: () => Error | undefined): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of answer) yield chunk as Buffer;
  } catch (error) {
    throw timedOut() ?? error;
  }
}

/** Methods that change nothing (RFC 9110 9.2.1): sent again when a kept-alive connection was stale. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How a connection the implementation already closed fails a request written on it. */
const STALE_CONNECTION_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Whether a failed request may go again on a new connection: it was written on a kept-alive connection
 * the implementation closed meanwhile (its idle time-out met the request on the way), no answer came,
 * and sending it again cannot change anything. Otherwise the client would get the proxy's 502 for an
 * implementation that was never asked.
 */
function isStaleConnection(request: UpstreamRequest, reused: boolean, error: NodeJS.ErrnoException): boolean {
  return (
    reused &&
    request.body === undefined &&
    SAFE_METHODS.has(request.method.toUpperCase()) &&
    STALE_CONNECTION_CODES.has(error.code ?? '')
  );
}

export function createNodeUpstream(ca: string[], description: string): UpstreamClient {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true, ca });
  /** `mayRetry`: once, on a fresh connection, when a kept-alive one turned out stale. */
  const send = (request: UpstreamRequest, mayRetry: boolean): Promise<UpstreamAnswer> => {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      let timeout: Error | undefined;
      let answered = false;
      const outgoing = (secure ? httpsRequest : httpRequest)(url, {
        method: request.method,
        headers: framed(request),
        agent: secure ? https : http,
      });
      outgoing.setTimeout(request.timeoutMs, () => {
        timeout = upstreamTimeout(request.timeoutMs);
        outgoing.destroy(timeout);
      });
      outgoing.once('error', (error: NodeJS.ErrnoException) => {
        if (!answered && !timeout && mayRetry && isStaleConnection(request, outgoing.reusedSocket, error))
          resolve(send(request, false));
        else reject(timeout ?? error);
      });
      outgoing.once('response', (answer) => {
        answered = true;
        // A failure from here on ends the body; the request's own 'error' has nobody left to tell.
        outgoing.on('error', () => undefined);
        resolve({
          statusCode: answer.statusCode ?? 502,
          headers: headerListOf(answer.rawHeaders),
          body: chunksOf(answer, () => timeout),
        });
      });
      if (request.body) request.body.pipe(outgoing);
      else outgoing.end();
    });
  };
  return {
    description,
    send: (request) => send(request, true),
    async close() {
      http.destroy();
      https.destroy();
    },
  };
}
