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
  // Both forms hold the base URL's host and port as they are: one search for those finds either form,
  // where a search per form would scan the whole body again for the form that is not there.
  const anchor = Buffer.from(hostOf(from));
  const anchored = forms.map((form) => ({ ...form, offset: form.needle.indexOf(anchor) }));
  return (chunks) => {
    const body = new ChunkedBytes(chunks);
    const pieces: Buffer[] = [];
    let at = 0;
    let kept = 0;
    for (;;) {
      const hit = body.indexOf(anchor, at);
      if (hit < 0) break;
      const form = anchored.find(
        (candidate) =>
          hit - candidate.offset >= at && body.startsWith(hit - candidate.offset, candidate.needle),
      );
      if (form === undefined) {
        at = hit + 1;
        continue;
      }
      const found = hit - form.offset;
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

/**
 * The host and port of a base URL as written in it (what both JSON forms of the URL share); the
 * opening quote, which both forms also start with, when there is no host to search for.
 */
function hostOf(base: string): string {
  const slashes = base.indexOf('//');
  const afterScheme = slashes < 0 ? 0 : slashes + 2;
  const pathStart = base.indexOf('/', afterScheme);
  return base.slice(afterScheme, pathStart < 0 ? base.length : pathStart) || '"';
}

/** `application/json` or any `+json` media type, parameters allowed. */
export const isJsonType = (contentType: string) => /[/+]json\b/i.test(contentType);

/** A body to send on: rewritten when it is uncompressed JSON. */
export function rewriteBody(
  chunks: readonly Buffer[],
  contentType: string,
  encoding: string,
  rewrite: BodyRewriter,
): readonly Buffer[] {
  if (!isJsonType(contentType) || (encoding !== '' && encoding !== 'identity')) return chunks;
  return rewrite(chunks);
}
