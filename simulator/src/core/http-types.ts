/** The simulator's own request and response values; only server/ touches node:http. */
import type { Result } from './result.js';

export type Headers = Readonly<Record<string, string>>;

/** A request as the core sees it: method upper-case, path without query, header names lower-case. */
export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** Raw body text; parsed by the validation stage. */
  body: string;
  /** The absolute base URL the client used (scheme://host[:port]), for pagination links. */
  origin: string;
  /** Set by the adapter when the body exceeded the limit and was dropped while streaming. */
  bodyTooLarge?: boolean;
  /** The limit the adapter applied when it is not the simulator's default (the snapshot's). */
  bodyLimit?: number;
  /**
   * A large body the adapter parsed as it streamed in (snapshot import; `body` is then empty): the
   * value, or why it is not JSON.
   */
  parsedJson?: Result<unknown, string>;
  /**
   * Set by the adapter when the server listens on a loopback address and the client connects from one
   * (the dashboard offers the configured keys only then).
   */
  loopback?: boolean;
}

/** What is known of a request before its body is read: enough to know the caller (AUTH-BASIC). */
export type RequestHead = Pick<SimRequest, 'method' | 'path' | 'headers'>;

/**
 * Whether a request's body may be read, decided from its head: only a known caller's is (an
 * unauthenticated body is never buffered nor parsed). `done` runs once the answer is written (it
 * releases what the admission took: the tenant's snapshot import); `answer` refuses at once.
 */
export type Admission =
  | { readonly read: true; readonly done?: () => Promise<void> }
  | { readonly read: false; readonly answer?: SimResponse };

/** Lends a serializer a buffer to write an answer into (the HTTP adapter's, reused once the answer went out). */
export interface BufferLender {
  /** A buffer of exactly `size` bytes, its contents undefined until written. */
  borrow(size: number): Buffer;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value to serialize, or undefined for an empty body (204). */
  body?: unknown;
  /**
   * `JSON.stringify(body)` as UTF-8 bytes, built faster by the handler (a list page of cached records),
   * in a buffer of the lender's when one is given.
   */
  serialize?: (lender?: BufferLender) => Buffer;
  /**
   * The same bytes as `serialize()`, in pieces the adapter writes one at a time with back-pressure (a
   * snapshot export of hundreds of MB, which no single string can hold).
   */
  chunks?: readonly Buffer[];
}

export const JSON_CONTENT_TYPE = 'application/json';
