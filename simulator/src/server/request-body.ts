/**
 * A request's body as the adapter reads it: only once the caller is known (the admission), cut off
 * while streaming past its limit (never buffered whole), the snapshot import's parsed as it streams
 * in; and, for a request whose body is not to be read, a short bounded drain so that the answer can
 * go out on a connection that stays usable, else the connection is closed after the answer.
 */
import type { IncomingMessage } from 'node:http';
import type { SimRequest } from '../core/http-types.js';
import { readStreamedJson } from './streamed-json.js';

/** A request that declares no body (RFC 9112 6.3: neither Content-Length nor Transfer-Encoding) has none. */
export const declaresNoBody = (request: IncomingMessage) =>
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

/** The request with its body read: as text up to `maxBodyBytes`, or parsed as it streams (`streamedLimit`). */
export async function withBody(
  request: IncomingMessage,
  base: Omit<SimRequest, 'body'>,
  maxBodyBytes: number,
  streamedLimit: number | undefined,
): Promise<SimRequest> {
  if (streamedLimit !== undefined) {
    const { tooLarge, parsed } = await readStreamedJson(request, streamedLimit);
    const simRequest: SimRequest = { ...base, body: '', bodyLimit: streamedLimit };
    if (tooLarge) return { ...simRequest, bodyTooLarge: true };
    return parsed === undefined ? simRequest : { ...simRequest, parsedJson: parsed };
  }
  const body = await readBody(request, maxBodyBytes);
  // The core answers an oversize body with 413 in the error format.
  return body === undefined ? { ...base, body: '', bodyTooLarge: true } : { ...base, body };
}

/** What is drained of a body that is not read (an unknown caller's): a few packets, briefly. */
export const DRAIN_BYTES = 65_536;
const DRAIN_MS = 2_000;

/**
 * Reads and drops a body that is not to be read, within DRAIN_BYTES and DRAIN_MS: true when it ended
 * within them (the answer then goes out on a connection that stays open), false otherwise (the answer
 * then closes the connection; nothing more of the body is read).
 */
export function drainWithin(request: IncomingMessage): Promise<boolean> {
  if (Number(request.headers['content-length']) > DRAIN_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      if (!ended) request.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_BYTES) settle(false);
    };
    const onEnd = () => settle(true);
    const onClose = () => settle(false);
    const timer = setTimeout(() => settle(false), DRAIN_MS);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
  });
}
