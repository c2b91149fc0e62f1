/**
 * The one change the proxy makes to an answer: absolute URLs to the implementation (a page's `next`
 * and `previous`, a `Location`) point at the proxy instead, so a client following them stays behind it.
 * In JSON bodies only a string that starts with the implementation's base URL and continues it (`/`,
 * `?`, `#` or its end) is rewritten, found in the bytes themselves, in the chunks they came in (no
 * decoding, no parse, no re-serialisation, no joining: every other byte as the implementation sent
 * it, and a page of records costs a search, not a copy).
 */
import { ChunkedBytes } from './chunked-bytes.js';

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

/** A body's chunks in, the pieces to send out (views of the chunks and the replacements). */
export type BodyRewriter = (chunks: readonly Buffer[]) => readonly Buffer[];

/** A rewriter of JSON bodies from `from` to `to` (also in the `\/`-escaped form JSON allows). */
export function jsonUrlRewriter(from: string, to: string): BodyRewriter {
  const forms = [
    { needle: Buffer.from(`"${from}`), replacement: Buffer.from(`"${to}`) },
    {
      needle: Buffer.from(`"${from.replaceAll('/', '\\/')}`),
      replacement: Buffer.from(`"${to.replaceAll('/', '\\/')}`),
    },
  ];
  return (chunks) => {
    const body = new ChunkedBytes(chunks);
    const pieces: Buffer[] = [];
    let at = 0;
    let kept = 0;
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
      const next = body.byteAt(end);
      // A string's first character: the quote is not itself escaped, and the URL ends or goes on.
      const starts = body.byteAt(found - 1) !== BACKSLASH;
      const continues = next !== undefined && CONTINUATIONS.has(next);
      if (starts && continues && !(next === BACKSLASH && body.byteAt(end + 1) !== 0x2f)) {
        pieces.push(...body.slices(kept, found), form.replacement);
        kept = end;
      }
      at = end;
    }
    if (pieces.length === 0) return chunks;
    pieces.push(...body.slices(kept, body.length));
    return pieces;
  };
}

/** A body to send on: rewritten when it is uncompressed JSON. */
export function rewriteBody(
  chunks: readonly Buffer[],
  contentType: string,
  encoding: string,
  rewrite: BodyRewriter,
): readonly Buffer[] {
  if (!/[/+]json\b/i.test(contentType) || (encoding !== '' && encoding !== 'identity')) return chunks;
  return rewrite(chunks);
}
