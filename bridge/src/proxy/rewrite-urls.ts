/**
 * The one change the proxy makes to an answer: absolute URLs to the implementation (a page's `next`
 * and `previous`, a `Location`) point at the proxy instead, so a client following them stays behind it.
 * In JSON bodies only a string that starts with the implementation's base URL and continues it (`/`,
 * `?`, `#` or its end) is rewritten, found in the bytes themselves (no decoding, no parse, no
 * re-serialisation: every other byte as the implementation sent it, and a page of records costs a
 * search, not a copy to text and back).
 */

/** Replaces the `from` prefix with `to` in a URL that is `from` itself or continues it. */
export function rewriteUrl(value: string, from: string, to: string): string {
  if (!value.startsWith(from)) return value;
  const rest = value.slice(from.length);
  return rest === '' || '/?#'.includes(rest[0]!) ? to + rest : value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** What may follow the base URL inside a JSON string for it to be the base URL: `/ ? # "` or `\/`. */
const CONTINUATIONS = new Set([0x2f, 0x3f, 0x23, QUOTE, BACKSLASH]);

export type BodyRewriter = (body: Buffer) => Buffer;

/** A rewriter of JSON bodies from `from` to `to` (also in the `\/`-escaped form JSON allows). */
export function jsonUrlRewriter(from: string, to: string): BodyRewriter {
  const forms = [
    { needle: Buffer.from(`"${from}`), replacement: Buffer.from(`"${to}`) },
    {
      needle: Buffer.from(`"${from.replaceAll('/', '\\/')}`),
      replacement: Buffer.from(`"${to.replaceAll('/', '\\/')}`),
    },
  ];
  return (body) => {
    const pieces: Buffer[] = [];
    let at = 0;
    for (;;) {
      let found = -1;
      let form = forms[0]!;
      for (const candidate of forms) {
        const index = body.indexOf(candidate.needle, at);
        if (index >= 0 && (found < 0 || index < found)) {
          found = index;
          form = candidate;
        }
      }
      if (found < 0) break;
      const end = found + form.needle.length;
      // A string's first character: the quote is not itself escaped, and the URL ends or goes on.
      const starts = found === 0 || body[found - 1] !== BACKSLASH;
      const continues = end < body.length && CONTINUATIONS.has(body[end]!);
      if (starts && continues && !(body[end] === BACKSLASH && body[end + 1] !== 0x2f)) {
        pieces.push(body.subarray(at, found), form.replacement);
      } else {
        pieces.push(body.subarray(at, end));
      }
      at = end;
    }
    if (pieces.length === 0) return body;
    pieces.push(body.subarray(at));
    return Buffer.concat(pieces);
  };
}

/** A body to send on: rewritten when it is uncompressed JSON. */
export function rewriteBody(
  body: Buffer,
  contentType: string,
  encoding: string,
  rewrite: BodyRewriter,
): Buffer {
  if (!/[/+]json\b/i.test(contentType) || (encoding !== '' && encoding !== 'identity')) return body;
  return rewrite(body);
}
