/**
 * The values a recording has redacted so far and their pseudonyms, replaced wherever they show up
 * again (a URL, a header, an error message that quotes a value, a name one record shows in a member the
 * document does not mark), each where it is a whole token (search-index.ts finds them). A JSON text is
 * searched for each value's JSON form, an escape read as the character it stands for (tokens.ts).
 */
import {
  buildIndex,
  MAX_SEARCHED,
  occurrences,
  type PieceCuts,
  patternOccurrences,
  type SearchIndex,
} from './search-index.js';
import { AS_IT_IS, AS_JSON, type Reading, writtenAsItIs } from './tokens.js';

/** A text with the values replaced, and how many occurrences were. */
export interface Replaced<T> {
  text: T;
  count: number;
}

export interface Replacements {
  /** Remembers `raw` -> `pseudonym` (the first pseudonym of a value stays). */
  add(raw: string, pseudonym: string): void;
  /** The pseudonym already given to `raw`, if any. */
  get(raw: string): string | undefined;
  /**
   * `text` (a header, a URL, a message) with every remembered value (long enough to search for)
   * replaced where it is a whole token.
   */
  apply(text: string): string;
  /** `apply` over a JSON text: each value in its JSON form, escapes read as what they stand for (tokens.ts). */
  applyJson(text: string): string;
  /** `applyJson`, with how many occurrences it replaced. */
  replaceJson(text: string): Replaced<string>;
  /**
   * `replaceJson` over the concatenation of `pieces`, cut as `cuts` says, piece by piece where no value
   * can be found across two: the same array when nothing is replaced.
   */
  replaceJsonPieces(pieces: readonly string[], cuts: PieceCuts): Replaced<readonly string[]>;
  /**
   * Whether `replaceJson` replaces `raw` by `pseudonym` wherever `raw` is the whole of a JSON string
   * written without escapes (`"raw"`): `raw` needs none, is searched for and `pseudonym` is its
   * pseudonym. No other occurrence can start before that string's opening quote or end past its
   * closing one (a value's JSON form holds a quote only escaped; an occurrence is the leftmost, the
   * longest at its place). Then searching a JSON text without escapes puts the pseudonym in every
   * such place (json-body.ts).
   */
  replacesQuoted(raw: string, pseudonym: string): boolean;
  size(): number;
}

/** `pattern: false` leaves the expressions out (tests compare them with the searches they stand for). */
export function createReplacements(
  minLength: (raw: string) => number,
  options: { pattern?: boolean } = {},
): Replacements {
  const searched = (raw: string) => raw.length >= minLength(raw) && raw.length <= MAX_SEARCHED;
  const map = new Map<string, string>();
  /** The search of texts read as they are, and of JSON texts; each built when first needed. */
  let plainIndex: SearchIndex | undefined;
  let jsonIndex: SearchIndex | undefined;
  const none = (text: string): Replaced<string> => ({ text, count: 0 });
  /** `text` with each match of the expression that starts a token replaced (tokenPatterns). */
  const replacePattern = (text: string, search: SearchIndex, pattern: RegExp): Replaced<string> => {
    pattern.lastIndex = 0;
    let out = '';
    let at = 0;
    let count = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      // Inside a longer run of word characters, or an escape: no value that starts here is a whole token.
      if (!search.reading.startsToken(text, match.index)) {
        pattern.lastIndex = match.index + 1;
        continue;
      }
      out += text.slice(at, match.index) + search.forms.get(match[0]);
      at = match.index + match[0].length;
      count += 1;
    }
    return count === 0 ? none(text) : { text: out + text.slice(at), count };
  };
  const searchIndex = (reading: Reading): SearchIndex => {
    const build = () => {
      const forms = new Map<string, string>();
      for (const [raw, pseudonym] of map)
        if (searched(raw)) forms.set(reading.form(raw), reading.form(pseudonym));
      return buildIndex(forms, reading, options.pattern ?? true);
    };
    if (reading.json) {
      jsonIndex ??= build();
      return jsonIndex;
    }
    plainIndex ??= build();
    return plainIndex;
  };
  const replaceIn = (text: string, reading: Reading): Replaced<string> => {
    if (map.size === 0 || text === '') return none(text);
    const search = searchIndex(reading);
    const { patterns } = search;
    if (patterns?.length === 1) return replacePattern(text, search, patterns[0]!);
    const found =
      patterns === undefined ? occurrences(text, search) : patternOccurrences(text, search, patterns);
    if (found.length === 0) return none(text);
    // Leftmost first; of two starting together, the longer; overlaps dropped.
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let out = '';
    let at = 0;
    let count = 0;
    for (const [start, end] of found) {
      if (start < at) continue;
      out += text.slice(at, start) + search.forms.get(text.slice(start, end));
      at = end;
      count += 1;
    }
    return { text: out + text.slice(at), count };
  };
  const replaceJson = (text: string) => replaceIn(text, AS_JSON);
  const replaceJsonPieces = (pieces: readonly string[], cuts: PieceCuts): Replaced<readonly string[]> => {
    if (map.size === 0) return { text: pieces, count: 0 };
    if (searchIndex(AS_JSON).spansPieces[cuts]) {
      const whole = pieces.join('');
      const replaced = replaceJson(whole);
      return replaced.count === 0
        ? { text: pieces, count: 0 }
        : { text: [replaced.text], count: replaced.count };
    }
    let out: string[] | undefined;
    let count = 0;
    for (let at = 0; at < pieces.length; at++) {
      const replaced = replaceJson(pieces[at]!);
      if (replaced.count === 0) continue;
      out ??= [...pieces];
      out[at] = replaced.text;
      count += replaced.count;
    }
    return { text: out ?? pieces, count };
  };
  return {
    add(raw, pseudonym) {
      if (raw === pseudonym || map.has(raw)) return;
      map.set(raw, pseudonym);
      if (searched(raw)) {
        plainIndex = undefined;
        jsonIndex = undefined;
      }
    },
    get: (raw) => map.get(raw),
    apply: (text) => replaceIn(text, AS_IT_IS).text,
    applyJson: (text) => replaceJson(text).text,
    replaceJson,
    replaceJsonPieces,
    replacesQuoted: (raw, pseudonym) => searched(raw) && map.get(raw) === pseudonym && writtenAsItIs(raw),
    size: () => map.size,
  };
}
