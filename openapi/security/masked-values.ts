/**
 * Credentials masked where they travel outside JSON members too (CLIENT-NO-SECRETS): a query string, a
 * form body, a URL's user info, the headers a log keeps; and a body that is neither JSON nor a form is
 * kept as its length and sha256 only. Every caller reads the one list of credential names.
 */
import { hash } from 'node:crypto';
import { isCredentialName, MASK } from './credential-names.js';

/**
 * `a=1&password=x` with each credential's value masked; the text itself when none is named. `keep`: a
 * value left as it is (a placeholder the caller put there already, such as `$OFKIT_SECRET`).
 */
export function maskPairs(text: string, keep?: (value: string) => boolean): string {
  if (!text.includes('=')) return text;
  let changed = false;
  const pairs = text.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals < 0 || !isCredentialName(decodedName(pair.slice(0, equals)))) return pair;
    if (keep?.(pair.slice(equals + 1))) return pair;
    changed = true;
    return `${pair.slice(0, equals + 1)}${MASK}`;
  });
  return changed ? pairs.join('&') : text;
}

/** A form's or query's name as sent, decoded where it can be (`pass%77ord`, `pass+word`). */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/** Whether any parameter of the query is named as a credential (the common case is none). */
export function namesCredential(query: URLSearchParams): boolean {
  for (const name of query.keys()) if (isCredentialName(name)) return true;
  return false;
}

/** A body of `name=value&...` pairs (a form, however it was labelled). */
const FORM = /^[^=&\s{[]+=[^&]*(?:&[^=&]+=[^&]*)*$/;

export const looksLikeForm = (text: string) => FORM.test(text.trim());

/** Deeper than any API body: a value nested further is kept as a marker, not walked. */
const MAX_MASK_DEPTH = 32;

/** A JSON value with every value under a credential's name masked (objects under one are walked). */
export function maskJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_MASK_DEPTH) return '(nested too deep to keep)';
  if (Array.isArray(value)) return value.map((item) => maskJson(item, depth + 1));
  // A loop, not entries/map/fromEntries: every POST's body passes here.
  const masked: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    const scalar = inner === null || typeof inner !== 'object';
    const kept = scalar && inner !== null && isCredentialName(key) ? MASK : maskJson(inner, depth + 1);
    // A body's own `__proto__` member stays a member (an assignment would set the prototype).
    if (key === '__proto__')
      Object.defineProperty(masked, key, {
        value: kept,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else masked[key] = kept;
  }
  return masked;
}

/** What is kept of a body that cannot be read for credentials: its length and digest, never its text. */
export function bodyDigest(text: string): { length: number; sha256: string } {
  return { length: Buffer.byteLength(text), sha256: hash('sha256', text, 'hex') };
}

/**
 * A URL as it may be printed: the user info's password and each credential-named query value masked,
 * whatever they hold (`@`, `/`, `:`), however the URL is written (a Redis URL, a webhook receiver).
 */
export function printableUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (!scheme) return url;
  const start = scheme[0].length;
  const queryAt = url.indexOf('?', start);
  const end = queryAt < 0 ? url.length : queryAt;
  const at = url.lastIndexOf('@', end - 1);
  let head = url.slice(0, end);
  if (at >= start) {
    const info = url.slice(start, at);
    const colon = info.indexOf(':');
    const user = colon < 0 ? '' : info.slice(0, colon);
    head = `${url.slice(0, start)}${colon < 0 ? MASK : `${user}:${MASK}`}${url.slice(at, end)}`;
  }
  if (queryAt < 0) return head;
  const hashAt = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hashAt < 0 ? url.length : hashAt);
  return `${head}?${maskPairs(query)}${hashAt < 0 ? '' : url.slice(hashAt)}`;
}
