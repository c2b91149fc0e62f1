/**
 * One request from the proxy to the implementation and its answer, whichever client carries them
 * (node-upstream.ts directly, egress-upstream.ts through an egress proxy).
 */
import type { Readable } from 'node:stream';
import type { HeaderList } from '../exchange/exchange.js';

export interface UpstreamRequest {
  method: string;
  /** The absolute URL at the implementation. */
  url: string;
  headers: Record<string, string | string[]>;
  /** The request body as the client sends it (absent for GET and HEAD, and when the client sends none). */
  body?: Readable;
  /** Milliseconds to wait for the answer's headers, then between its body's chunks. */
  timeoutMs: number;
}

export interface UpstreamAnswer {
  statusCode: number;
  /** Names in lower case, in the order they came, a repeated header repeated. */
  headers: HeaderList;
  /** The body's chunks; ends in an error (a time-out, a reset) when the implementation failed mid-way. */
  body: AsyncIterator<Buffer>;
}

export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamAnswer>;
  /** One line: what is trusted and which egress proxy is used. */
  readonly description: string;
  close(): Promise<void>;
}
