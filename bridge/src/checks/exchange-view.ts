/**
 * An exchange read once for the checks: its URL and API path, its operation, its parsed bodies, the
 * key that made it (the tenant) and its time.
 */
import type { BridgeDocument, BridgeOperation } from '../document/bridge-document.js';
import type { Route } from '../document/route-operation.js';
import { apiPathOf, isControlPath } from '../exchange/api-path.js';
import { type Exchange, headerOf, isJsonMedia, jsonBodyOf, mediaTypeOf } from '../exchange/exchange.js';

export interface ExchangeView {
  index: number;
  exchange: Exchange;
  method: string;
  url: URL;
  apiPath: string;
  query: URLSearchParams;
  /** A control API request (`/_ofkit/`): ofkit's own, not checked against the API document. */
  control: boolean;
  route: Route<BridgeOperation>;
  operation?: BridgeOperation;
  status: number;
  requestJson: unknown;
  responseJson: unknown;
  /** The answer's media type says JSON. */
  responseIsJson: boolean;
  /** The Basic credentials (as recorded: redacted ones are pseudonyms, consistently). */
  key?: { id: string; secret: string };
  /** The tenant: the key id, or `(no credentials)`. */
  tenant: string;
  atMs: number;
}

export const NO_CREDENTIALS = '(no credentials)';

function basicOf(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Reads `exchange` (the `index`-th of its recording) against `document`. */
export function viewExchange(
  document: BridgeDocument,
  exchange: Exchange,
  index: number,
  basePath: string,
): ExchangeView {
  const url = new URL(exchange.request.url);
  const apiPath = apiPathOf(url, basePath);
  const method = exchange.request.method.toUpperCase();
  const route = document.route(method, apiPath);
  const key = basicOf(headerOf(exchange.request.headers, 'authorization'));
  return {
    index,
    exchange,
    method,
    url,
    apiPath,
    query: url.searchParams,
    control: isControlPath(apiPath),
    route,
    ...(route.ok && { operation: route.operation }),
    status: exchange.response.status,
    requestJson: jsonBodyOf(exchange.request),
    responseJson: jsonBodyOf(exchange.response),
    responseIsJson: isJsonMedia(mediaTypeOf(exchange.response.headers)),
    ...(key && { key }),
    tenant: key?.id ?? NO_CREDENTIALS,
    atMs: Date.parse(exchange.startedAt),
  };
}

/** The operation's name in findings: its operationId, or `METHOD /path` when undocumented. */
export const operationName = (view: ExchangeView) =>
  view.operation?.operationId ?? `${view.method} ${view.apiPath}`;

export const isSuccess = (view: ExchangeView) => view.status >= 200 && view.status < 300;

/** The records an answer holds: a page's `results`, a list, or one record. */
export function recordsOf(view: ExchangeView): Record<string, unknown>[] {
  return recordsIn(view.responseJson);
}

/** The records a JSON answer holds: a list's, a page's `results`, or the answer itself. */
export function recordsIn(body: unknown): Record<string, unknown>[] {
  const records = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && Array.isArray((body as { results?: unknown }).results)
      ? (body as { results: unknown[] }).results
      : [body];
  return records.filter(
    (item): item is Record<string, unknown> =>
      typeof item === 'object' && item !== null && !Array.isArray(item),
  );
}
