/**
 * The suite's HTTP client: undici with one keep-alive agent (connections reused), Basic credentials
 * from the target's keys, and a session per property run that records every exchange, masked, for the
 * curl reproduction of a failure.
 */
import { Agent, request } from 'undici';
import type { JsonValue } from '../../../openapi/document/json.js';
import { contentCodingsOf, decodeBody } from '../../../openapi/http/content-coding.js';
import type { TargetConfig } from '../target/target-types.js';
import { type Credentials, type RecordedAuth, resolveCredentials } from './masked-auth.js';

export interface HttpRequest {
  method: string;
  /** A path on the base URL (`/api/links/`), or an absolute URL on the same origin (a `next` link). */
  url: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON with `content-type: application/json`. */
  json?: JsonValue;
  /** Sent as is (malformed bodies). */
  rawBody?: string;
  /** Default: the primary key. */
  auth?: Credentials;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-case. */
  headers: Record<string, string>;
  contentType: string;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: JsonValue | undefined;
}

/** One request and its answer as recorded: credentials masked, bodies cut at RECORDED_BODY_CHARS. */
export interface Exchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    auth: RecordedAuth;
    body?: string;
  };
  response: { status: number; contentType: string; body: string };
  durationMs: number;
}

export interface HttpSession {
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Every exchange of this session, in order. */
  readonly exchanges: Exchange[];
}

export interface HttpClient {
  baseUrl: string;
  /** A new recording session (one per property run). */
  session(): HttpSession;
  /**
   * Why the client stopped asking the target (UNANSWERED_IN_A_ROW requests in a row got no answer):
   * every request after that fails at once, so a hung target ends the run instead of costing a
   * time-out per request for hours. Undefined while the target answers.
   */
  stopped(): string | undefined;
  close(): Promise<void>;
}

/** Requests in a row without an answer (timed out, or the connection refused) before the run stops. */
export const UNANSWERED_IN_A_ROW = 3;

/** Failures that mean no answer came: the target hangs or is gone (a reset connection is an answer of a kind). */
const NO_ANSWER = new Set([
  'TimeoutError',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
]);

/** Thrown for a request after the target stopped answering. */
export class TargetStoppedError extends Error {
  override name = 'TargetStoppedError';
}

const RECORDED_BODY_CHARS = 4000;

/** Thrown when a URL leads off the target's origin: credentials are never sent elsewhere. */
export class ForeignOriginError extends Error {}

function buildUrl(baseUrl: string, target: string, query: Record<string, string> | undefined): URL {
  const url = /^https?:\/\//.test(target) ? new URL(target) : new URL(`${baseUrl}${target}`);
  if (url.origin !== new URL(baseUrl).origin) {
    throw new ForeignOriginError(`${target} is not on the target's origin ${new URL(baseUrl).origin}`);
  }
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  return url;
}

function parseJson(text: string): JsonValue | undefined {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * An answer's body as text, undone from its content codings: a server may compress whoever asked (the
 * suite sends no `Accept-Encoding`, under which any coding is acceptable), and a client reads what the
 * body says. A body that cannot be undone reads as the reason, which no rule takes for JSON.
 */
function textOf(bytes: ArrayBuffer, headers: Record<string, string>): string {
  // A repeated header is joined with commas, which is how content codings are listed anyway.
  const list = Object.entries(headers);
  // Read as undici's `text()` reads it (a leading BOM dropped) when nothing is to undo.
  if (contentCodingsOf(list).length === 0) return new TextDecoder().decode(bytes);
  const decoded = decodeBody([new Uint8Array(bytes)], list);
  return 'text' in decoded ? decoded.text : `(the body could not be read: ${decoded.omitted})`;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Sees every answer of every session. */
export type ExchangeObserver = (method: string, url: string, response: HttpResponse) => void;

export function createHttpClient(
  config: Pick<TargetConfig, 'baseUrl' | 'keys' | 'requestTimeoutMs'>,
  observe?: ExchangeObserver,
): HttpClient {
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    headersTimeout: config.requestTimeoutMs,
    bodyTimeout: config.requestTimeoutMs,
  });

  let unanswered = 0;
  let stopped: string | undefined;

  /** The answer and its whole body; counts the requests in a row that got none. */
  async function answerOf(url: URL, options: Parameters<typeof request>[1]) {
    if (stopped) throw new TargetStoppedError(`not sent: the target stopped answering (${stopped})`);
    try {
      // The whole answer within the time-out, body included: a body that trickles in a byte at a time
      // never trips the agent's time-outs (they time the gaps between chunks).
      const answer = await request(url, { ...options, signal: AbortSignal.timeout(config.requestTimeoutMs) });
      const headers = flattenHeaders(answer.headers);
      const text = textOf(await answer.body.arrayBuffer(), headers);
      unanswered = 0;
      return { answer, headers, text };
    } catch (error) {
      const { code, name } = error as { code?: unknown; name?: string };
      const kind = name === 'TimeoutError' ? 'TimeoutError' : typeof code === 'string' ? code : '';
      if (NO_ANSWER.has(kind) && ++unanswered >= UNANSWERED_IN_A_ROW && stopped === undefined)
        stopped = `${UNANSWERED_IN_A_ROW} requests in a row got no answer; the last, ${options?.method ?? 'GET'} ${url.pathname}: ${kind}`;
      throw error;
    }
  }

  async function send(input: HttpRequest, exchanges: Exchange[]): Promise<HttpResponse> {
    const url = buildUrl(config.baseUrl, input.url, input.query);
    const { header, recorded } = resolveCredentials(input.auth ?? 'primary', config.keys);
    const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
    let body = input.rawBody;
    if (input.json !== undefined) {
      body = JSON.stringify(input.json);
      headers['content-type'] ??= 'application/json';
    }
    const started = performance.now();
    const {
      answer,
      headers: responseHeaders,
      text,
    } = await answerOf(url, {
      method: input.method as 'GET',
      headers: header === undefined ? headers : { ...headers, authorization: header },
      body,
      dispatcher: agent,
    });
    const contentType = responseHeaders['content-type'] ?? '';
    exchanges.push({
      request: {
        method: input.method,
        url: url.toString(),
        headers,
        auth: recorded,
        ...(body ? { body } : {}),
      },
      response: { status: answer.statusCode, contentType, body: text.slice(0, RECORDED_BODY_CHARS) },
      durationMs: Math.round(performance.now() - started),
    });
    const response = {
      status: answer.statusCode,
      headers: responseHeaders,
      contentType,
      text,
      json: parseJson(text),
    };
    observe?.(input.method, url.toString(), response);
    return response;
  }

  return {
    baseUrl: config.baseUrl,
    session() {
      const exchanges: Exchange[] = [];
      return { exchanges, request: (input) => send(input, exchanges) };
    },
    stopped: () => stopped,
    close: () => agent.close(),
  };
}
