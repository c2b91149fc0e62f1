/**
 * Turns one exchange into a request-log entry: the public members of the contract, a curl line with the
 * credentials masked, and the facts the judge needs (a 428's session, a page's `next`, where a key or
 * secret appeared). CLIENT-NO-SECRETS: the Authorization header is read to know what to mask and is
 * never kept; body values of credential-like fields are masked before anything is stored.
 */
import { createHash } from 'node:crypto';
import { parseBasic } from '../../../openapi/config/api-keys.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { ObservedRequest } from './request-log.js';

export interface ExchangeTimes {
  atMs: number;
  startedRealMs: number;
  endedRealMs: number;
}

const MASKED_KEY = '$OFKIT_KEY';
const MASKED_SECRET = '$OFKIT_SECRET';
/** Body fields whose values are end-user or API credentials (an institution password, an MFA token). */
const CREDENTIAL_FIELD = /pass|secret|token|credential|api_key|apikey/i;
const BODY_KEPT = 2000;

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const basic = parseBasic(header);
  return basic === undefined ? undefined : { id: basic.id, secret: basic.password };
}

/** Replaces the key id and secret (plain, URL-encoded or as the Basic value) by the curl placeholders. */
function masker(credentials: { id: string; secret: string } | undefined): (text: string) => string {
  if (!credentials) return (text) => text;
  const basic = Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64');
  const pairs: [string, string][] = [
    [basic, `${MASKED_KEY}:${MASKED_SECRET}`],
    [credentials.secret, MASKED_SECRET],
    [encodeURIComponent(credentials.secret), MASKED_SECRET],
    [credentials.id, MASKED_KEY],
    [encodeURIComponent(credentials.id), MASKED_KEY],
  ];
  return (text) =>
    pairs.reduce((masked, [secret, mask]) => (secret ? masked.split(secret).join(mask) : masked), text);
}

/** Deeper than any API body: a body nested further (a fuzzer's, an attacker's) is kept as a marker. */
const MAX_MASK_DEPTH = 32;

function maskJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_MASK_DEPTH) return '(nested too deep to keep)';
  if (Array.isArray(value)) return value.map((item) => maskJson(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      CREDENTIAL_FIELD.test(key) && typeof inner === 'string' ? '***' : maskJson(inner, depth + 1),
    ]),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** CLIENT-NO-SECRETS: the places where the key id or the secret shows (the Basic header is the only right one). */
function secretsIn(request: SimRequest, credentials: { id: string; secret: string } | undefined): string[] {
  if (!credentials) return [];
  const shows = (text: string) =>
    [credentials.secret, credentials.id].some((value) => value.length > 0 && text.includes(value)) ||
    text.includes(Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64'));
  const query = request.query.toString();
  const decodedQuery = [...request.query.entries()].map(([k, v]) => `${k}=${v}`).join('&');
  return [
    ...(shows(request.path) ? ['path'] : []),
    ...(shows(query) || shows(decodedQuery) ? ['query'] : []),
    ...(request.body && shows(request.body) ? ['body'] : []),
  ];
}

function curlLine(request: SimRequest, url: string, body: string | null): string {
  const parts = [`curl -u ${MASKED_KEY}:${MASKED_SECRET} -X ${request.method} '${url}'`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith('x-service-')) parts.push(`-H '${name}: ${value}'`);
  }
  if (body !== null) parts.push(`-H 'content-type: application/json' -d '${body.replaceAll("'", "'\\''")}'`);
  return parts.join(' ');
}

type ErrorItem = Record<string, unknown>;

function firstError(response: SimResponse): ErrorItem | undefined {
  if (response.status < 400 || !Array.isArray(response.body)) return undefined;
  return response.body[0] as ErrorItem | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The facts of the bodies the judge reads (LINK-MFA-428 sessions, PAGE-DEFAULT's `next`). */
function facts(request: SimRequest, response: SimResponse, parsedBody: unknown, atMs: number) {
  const error = firstError(response);
  const out: Pick<ObservedRequest, 'mfa' | 'resume' | 'page'> = {};
  if (response.status === 428 && error && typeof error.session === 'string') {
    const expiry = typeof error.expiry === 'number' ? error.expiry : 0;
    out.mfa = { session: error.session, expiresAtMs: atMs + expiry * 1000, link: text(error.link) };
  }
  const body = parsedBody as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && typeof body.session === 'string') {
    out.resume = { session: body.session, link: text(body.link) };
  }
  const page = response.body as { next?: unknown; count?: unknown; results?: unknown } | undefined;
  if (request.method === 'GET' && response.status === 200 && page && Array.isArray(page.results)) {
    out.page = { next: text(page.next), empty: page.results.length === 0, count: Number(page.count ?? 0) };
  }
  return out;
}

/** The entry of one exchange of the API (never of `/_ofkit/`); `seq` is the tenant's next number. */
export function observeRequest(
  request: SimRequest,
  response: SimResponse,
  meta: { operationId: string | null; rule: string | null; seq: number },
  times: ExchangeTimes,
): ObservedRequest {
  const credentials = basicCredentials(request.headers.authorization);
  const mask = masker(credentials);
  const parsedBody = request.body ? parseJson(request.body) : undefined;
  const maskedBody = request.body
    ? mask(parsedBody === undefined ? request.body : JSON.stringify(maskJson(parsedBody))).slice(0, BODY_KEPT)
    : null;
  const query = mask(request.query.toString());
  const path = mask(request.path);
  const error = firstError(response);
  const detail = text(error?.message);
  return {
    entry: {
      seq: meta.seq,
      at: new Date(times.atMs).toISOString(),
      real_at: new Date(times.startedRealMs).toISOString(),
      method: request.method,
      path,
      query,
      operation_id: meta.operationId,
      body_sha256: request.body ? createHash('sha256').update(request.body).digest('hex') : null,
      status: response.status,
      error_code: text(error?.code),
      rule: meta.rule,
      detail: detail === null ? null : mask(detail).slice(0, 200),
      duration_ms: Math.max(0, times.endedRealMs - times.startedRealMs),
      curl: curlLine(request, `${request.origin}${path}${query ? `?${query}` : ''}`, maskedBody),
    },
    atMs: times.atMs,
    realMs: times.startedRealMs,
    ...facts(request, response, parsedBody, times.atMs),
    secretsIn: secretsIn(request, credentials),
  };
}
