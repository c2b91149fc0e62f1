/**
 * The one change the proxy makes to an answer: absolute URLs to the implementation (a page's `next`
 * and `previous`, a `Location`) point at the proxy instead, so a client following them stays behind it.
 * In JSON bodies only a string that starts with the implementation's base URL and continues it (`/`,
 * `?`, `#` or its end) is rewritten, found in the text itself: no parse, no re-serialisation, every
 * other byte as the implementation sent it.
 */

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces the `from` prefix with `to` in a URL that is `from` itself or continues it. */
export function rewriteUrl(value: string, from: string, to: string): string {
  if (!value.startsWith(from)) return value;
  const rest = value.slice(from.length);
  return rest === '' || '/?#'.includes(rest[0]!) ? to + rest : value;
}

/** A rewriter of JSON texts from `from` to `to` (also in the `\/`-escaped form JSON allows). */
export function jsonUrlRewriter(from: string, to: string): (text: string) => string {
  const escapedFrom = from.replaceAll('/', '\\/');
  const escapedTo = to.replaceAll('/', '\\/');
  // A string's first characters: after a quote that is not itself escaped.
  const pattern = new RegExp(
    `(?<!\\\\)"(${escapeRegExp(from)}|${escapeRegExp(escapedFrom)})(?=[/?#"]|\\\\/)`,
    'g',
  );
  const host = new URL(from).host;
  return (text) => {
    if (!text.includes(host)) return text;
    return text.replace(pattern, (_whole, found: string) => `"${found === from ? to : escapedTo}`);
  };
}

/** A body to send on: rewritten when it is uncompressed JSON. */
export function rewriteBody(
  body: Buffer,
  contentType: string,
  encoding: string,
  rewrite: (text: string) => string,
): Buffer {
  if (!/[/+]json\b/i.test(contentType) || (encoding !== '' && encoding !== 'identity')) return body;
  const text = body.toString('utf8');
  const rewritten = rewrite(text);
  return rewritten === text ? body : Buffer.from(rewritten);
}
