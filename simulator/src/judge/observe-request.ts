/**
 * Takes what the log keeps of one exchange, on the request path: the request's parts with the
 * credentials masked, the facts the judge needs (a 428's session, a page's `next`, where a key or secret
 * appeared, the links it touches), nothing else. CLIENT-NO-SECRETS: the Authorization header is read to
 * know what to mask and is never kept; every other header is compared with the key's secret and the
 * links' known passwords here, before anything is kept (the values are never stored); the values of
 * credential names (openapi/security's one list) are masked in JSON members, form bodies, the query and
 * the kept headers before anything is stored, and a body that is neither JSON nor a form is kept as its
 * length and sha256 only. The work is the least that cannot wait: a text is masked only where a
 * credential shows in it.
 */
import { hash } from 'node:crypto';
import { parseBasic } from '../../../openapi/config/api-keys.js';
import { isCredentialName, MASK } from '../../../openapi/security/credential-names.js';
import {
  looksLikeForm,
  maskJson,
  maskPairs,
  namesCredential,
} from '../../../openapi/security/masked-values.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { KnownPasswords } from './known-passwords.js';
import { linkFacts } from './link-facts.js';
import { type LoggedRequest, MASKED_KEY, MASKED_SECRET } from './logged-request.js';

export interface ExchangeTimes {
  atMs: number;
  startedRealMs: number;
  endedRealMs: number;
}

const BODY_KEPT = 2000;
const DETAIL_KEPT = 200;
/** A query string with escapes: only such a query reads differently decoded. */
const ESCAPED = /[%+]/;

/**
 * The forms a key's credentials take in a text, each with its placeholder, in the order they are
 * replaced (the Basic value first: the id or the secret replaced inside it would hide it).
 */
type Forms = readonly (readonly [string, string])[];

/** What to mask (`forms`) and what counts as the credentials showing (`shown`) for one key. */
export interface KeyForms {
  readonly forms: Forms;
  readonly shown: readonly string[];
  /** What counts as the credentials showing in another header: the secret or the Basic value, not the id. */
  readonly inHeaders: readonly string[];
}

/** The forms of the credentials an Authorization header carries, if it carries any. */
export function credentialForms(header: string | undefined): KeyForms | undefined {
  const basic = parseBasic(header);
  return basic === undefined ? undefined : keyForms(basic.id, basic.password);
}

/** The forms of a key id and its secret. */
export function keyForms(id: string, secret: string): KeyForms {
  const encoded = Buffer.from(`${id}:${secret}`).toString('base64');
  const forms: [string, string][] = [[encoded, `${MASKED_KEY}:${MASKED_SECRET}`]];
  // What counts as the credentials showing (judgeNoSecrets): the id, the secret or the Basic value.
  const shown = [encoded];
  if (secret.length > 0) {
    forms.push([secret, MASKED_SECRET], [encodeURIComponent(secret), MASKED_SECRET]);
    shown.push(secret);
  }
  // A header may name the key (an `x-client-id`); only the secret in one is a leak.
  const inHeaders = [...shown];
  if (id.length > 0) {
    forms.push([id, MASKED_KEY], [encodeURIComponent(id), MASKED_KEY]);
    shown.push(id);
  }
  return { forms, shown, inHeaders };
}

/** Replaces the key id and secret (plain, URL-encoded or as the Basic value) by the curl placeholders. */
function mask(text: string, forms: Forms | undefined): string {
  if (forms === undefined) return text;
  let masked = text;
  for (const [form, placeholder] of forms)
    if (masked.includes(form)) masked = masked.split(form).join(placeholder);
  return masked;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function showsIn(text: string, shown: readonly string[]): boolean {
  for (const value of shown) if (text.includes(value)) return true;
  return false;
}

/** The query's parameters decoded, as `k=v&...`. */
function decodedQuery(query: URLSearchParams): string {
  const pairs: string[] = [];
  for (const [name, value] of query) pairs.push(`${name}=${value}`);
  return pairs.join('&');
}

/** The request's headers that carry the key's secret or a link's password (Authorization aside). */
function headersShowing(request: SimRequest, key: KeyForms | undefined, passwords?: KnownPasswords) {
  const found: string[] = [];
  for (const name in request.headers) {
    if (name === 'authorization') continue;
    const value = request.headers[name]!;
    if ((key && showsIn(value, key.inHeaders)) || passwords?.shownIn(value)) found.push(`header ${name}`);
  }
  return found;
}

/**
 * CLIENT-NO-SECRETS: the places where the key id or the secret shows (the Basic header is the only right
 * one), or a link's password outside the body that registers or updates it.
 */
function secretsIn(
  request: SimRequest,
  query: string,
  key: KeyForms | undefined,
  passwords?: KnownPasswords,
): string[] {
  const shown = key?.shown ?? [];
  const decoded = ESCAPED.test(query) ? decodedQuery(request.query) : query;
  const found: string[] = [];
  if (showsIn(request.path, shown) || passwords?.shownIn(request.path)) found.push('path');
  if (showsIn(query, shown) || (decoded !== query && showsIn(decoded, shown)) || passwords?.shownIn(decoded))
    found.push('query');
  if (request.body && showsIn(request.body, shown)) found.push('body');
  found.push(...headersShowing(request, key, passwords));
  return found;
}

type ErrorItem = Record<string, unknown>;

function firstError(response: SimResponse): ErrorItem | undefined {
  if (response.status < 400 || !Array.isArray(response.body)) return undefined;
  return response.body[0] as ErrorItem | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

type Facts = Pick<
  LoggedRequest,
  'mfa' | 'resume' | 'page' | 'link' | 'registrant' | 'linkStatus' | 'requestId'
>;

/** The facts of the bodies the judge reads (LINK-MFA-428 sessions, PAGE-DEFAULT's `next`, the links). */
function facts(
  request: SimRequest,
  response: SimResponse,
  operationId: string | null,
  parsedBody: unknown,
  atMs: number,
): Facts {
  const error = firstError(response);
  const out: Facts = linkFacts(request, response, operationId, parsedBody);
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

function serviceHeaders(request: SimRequest): [string, string][] | undefined {
  const found: [string, string][] = [];
  for (const name in request.headers) {
    if (name.startsWith('x-service-'))
      found.push([name, isCredentialName(name) ? MASK : request.headers[name]!]);
  }
  return found.length > 0 ? found : undefined;
}

/** The key's placeholders stay: the curl line reads the key from them. */
const isPlaceholder = (value: string) => value === MASKED_KEY || value === MASKED_SECRET;

/** The query as the log keeps it: the key masked, and the values of credential names. */
function loggedQuery(request: SimRequest, query: string, forms: Forms | undefined): string {
  const masked = mask(query, forms);
  return namesCredential(request.query) ? maskPairs(masked, isPlaceholder) : masked;
}

/** The body as the log keeps it: masked JSON or form text, or (neither) its length alone. */
function loggedBody(
  request: SimRequest,
  parsed: unknown,
  forms: Forms | undefined,
): Pick<LoggedRequest, 'body' | 'bodyForm' | 'bodyBytes'> {
  if (parsed !== undefined)
    return { body: mask(JSON.stringify(maskJson(parsed)), forms).slice(0, BODY_KEPT) };
  const type = request.headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded') || looksLikeForm(request.body))
    return { body: maskPairs(mask(request.body, forms), isPlaceholder).slice(0, BODY_KEPT), bodyForm: true };
  // Not JSON, not a form: nothing in it can be told apart from a credential.
  return { bodyBytes: Buffer.byteLength(request.body) };
}

/**
 * What the log keeps of one exchange of the API (never of `/_ofkit/`); `credentials`: the forms of the
 * request's Authorization header when the caller has them already (a configured key's); `passwords`:
 * the tenant's links' passwords known so far, which learn the ones this request carries where they belong.
 */
export function observeRequest(
  request: SimRequest,
  response: SimResponse,
  meta: { operationId: string | null; rule: string | null },
  times: ExchangeTimes,
  credentials = credentialForms(request.headers.authorization),
  passwords?: KnownPasswords,
): LoggedRequest {
  const forms = credentials?.forms;
  const parsedBody = request.body ? parseJson(request.body) : undefined;
  const rawQuery = request.query.toString();
  const query = loggedQuery(request, rawQuery, forms);
  const error = firstError(response);
  const detail = text(error?.message);
  const headers = serviceHeaders(request);
  const secrets = secretsIn(request, rawQuery, credentials, passwords);
  passwords?.learn(meta.operationId, parsedBody);
  const logged: LoggedRequest = {
    method: request.method,
    origin: request.origin,
    path: mask(request.path, forms),
    query,
    operation: meta.operationId,
    // The one-shot hash: a Hash object per request cost more than the hashing of a small body.
    sha256: request.body ? hash('sha256', request.body, 'hex') : null,
    status: response.status,
    code: text(error?.code),
    rule: meta.rule,
    detail: detail === null ? null : mask(detail, forms).slice(0, DETAIL_KEPT),
    at: times.atMs,
    realAt: times.startedRealMs,
    durationMs: Math.max(0, times.endedRealMs - times.startedRealMs),
  };
  // Assigned, not spread: spread copies on the request path cost more CPU per request.
  Object.assign(logged, facts(request, response, meta.operationId, parsedBody, times.atMs));
  // CLIENT-NO-SECRETS: a link fact is what the client sent; one that carries a credential is not kept.
  if (logged.link && (mask(logged.link, forms) !== logged.link || passwords?.shownIn(logged.link)))
    delete logged.link;
  if (headers) logged.headers = headers;
  if (request.body) Object.assign(logged, loggedBody(request, parsedBody, forms));
  if (secrets.length > 0) logged.secrets = secrets;
  return logged;
}
