/** The simulator's own request and response values; only server/ touches node:http. */

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
  /**
   * Set by the adapter when the server listens on a loopback address and the client connects from one
   * (the dashboard offers the configured keys only then).
   */
  loopback?: boolean;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value to serialize, or undefined for an empty body (204). */
  body?: unknown;
  /** `JSON.stringify(body)` as UTF-8 bytes, built faster by the handler (a list page of cached records). */
  serialize?: () => Buffer;
}

export const JSON_CONTENT_TYPE = 'application/json';
