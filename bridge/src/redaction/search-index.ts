/**
 * How remembered values are found in a text (replacements.ts replaces them): the index built over
 * their forms, and the occurrences it finds. An occurrence counts only as a whole token: a value inside
 * a longer run of letters or digits (`123456` inside `000123456`) is another value, left alone. So a
 * value can only start where its first run of letters and digits is a whole run of the text: one pass
 * over the text's runs, each looked up by its hash among the values' first runs, finds every
 * occurrence, whatever the number of values (a page of records costs a scan, not a search per value).
 * While the values are few (a recording of one account's pages: its numbers and the API key), each is
 * searched for on its own with the engine's substring search, which finds the same occurrences in a
 * fraction of the time; while they are not too many, expressions find them (tokenPatterns). A JSON
 * text is searched for each value's JSON form, an escape read as the character it stands for
 * (tokens.ts).
 */
import { BACKSLASH, escapeEnd, type Reading, WORD_CODES } from './tokens.js';

/** Longer values (a CFDI's XML, a base64 PDF) are replaced where named, not searched for in free text. */
export const MAX_SEARCHED = 256;
/**
 * Up to this many values, each is found by the engine's own substring search (a pass in native code
 * per value, far quicker than one pass in JavaScript over every run); past it, the one pass over the
 * runs costs less than a search per value.
 */
const FEW_VALUES = 16;

/** A value to search for, by its first run of word characters. */
interface Searched {
  value: string;
  /** Where its first run starts, and its length. */
  runStart: number;
  runLength: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Hashes are kept to 30 bits: small integers are the cheapest map keys. */
const HASH_MASK = 0x3fffffff;
/**
 * A body has thousands of runs and nearly none is a value: a table of 2^20 bits (128 KiB) answers
 * "certainly not" for most of them before the map is asked.
 */
const HASH_BITS = 20;
const BIT_MASK = (1 << HASH_BITS) - 1;

/** The FNV-1a hash of `text[start, end)`, over UTF-16 code units. */
function hashOf(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash & HASH_MASK;
}

/** The tables of the one pass over a text's runs (built only for more than FEW_VALUES values). */
interface RunIndex {
  /** By the hash of the first run. */
  byRun: Map<number, Searched[]>;
  /** Which first-run lengths occur (a run of another length is not looked up). */
  runLengths: Uint8Array;
  /** One bit per hash (its low HASH_BITS): a run whose bit is clear is no value's first run. */
  hashBits: Uint32Array;
  /** Values without a single word character (searched for one by one; rare). */
  unrunned: string[];
}

export interface SearchIndex {
  /** Every value searched for, in its form in the texts searched (`Reading.form`). */
  values: readonly string[];
  /** Each value's replacement, by the value (both in that form). */
  forms: ReadonlyMap<string, string>;
  reading: Reading;
  /**
   * Expressions that find them all, one per class of first character, while they are not too many
   * (see tokenPatterns).
   */
  patterns?: readonly RegExp[];
  /** Absent while the values are few: each is then searched for on its own. */
  runs?: RunIndex;
  /**
   * A value could be found across two pieces of a text, or at a piece's edge only: pieces cut around
   * each item of a list (see PIECE_EDGE), or only between two of its objects (see OBJECT_CUT).
   */
  spansPieces: Record<PieceCuts, boolean>;
}

/**
 * The pieces of a long body written again (json-pieces.ts) meet only where a list's `[` is
 * followed by its first item, an item is followed by `,` or the list's `]`, or `,` by the next item;
 * an item starts with `{ [ " -`, a digit, `t`, `f` or `n` and ends with `} ] "`, a digit, `e` or `l`.
 * A value that holds none of those meetings, and neither starts with `,` or `]` nor ends with `,` or
 * `[`, is found in the pieces one by one exactly where it is found in their concatenation: nothing
 * spans two pieces, and a whole token at a piece's edge is one in the text (its neighbour there is one
 * of `[ , ]`). Others make the text be searched whole (an address such as `Av. Paulista 1000, 5`).
 */
const PIECE_EDGE = /^[,\]]|[,[]$|[,[][{["\-\dtfn]|[}\]"\del][,\]]/;
/**
 * The pieces a long body was read in (exchange/json-split.ts) meet only between two objects of its
 * list: `[` then `{`, `}` then `,`, `,` then `{`, `}` then `]`. Only a value holding one of those pairs
 * can be found across two of them (an address such as `Av. Paulista 1000, 5` cannot), and at a piece's
 * edge a whole token is one in the text (its neighbour there is one of `[ , ]`).
 */
const OBJECT_CUT = /\[\{|\},|,\{|\}\]/;

/** How a text's pieces were cut: around each item of a list (json-pieces.ts), or between objects only. */
export type PieceCuts = 'items' | 'objects';

/** Up to this many values (this many characters in all), expressions find them all (tokenPatterns). */
const PATTERN_VALUES = 512;
const PATTERN_CHARACTERS = 65_536;

/** The class of a value's first character: a digit, a small letter, a capital, anything else. */
function firstClass(value: string): number {
  const code = value.charCodeAt(0);
  if (code >= 48 && code <= 57) return 0;
  if (code >= 97 && code <= 122) return 1;
  return code >= 65 && code <= 90 ? 2 : 3;
}

/**
 * Expressions that find, from where they stand, the leftmost occurrence of any value that ends a
 * token, the longest at that place; `replacePattern` passes over one that does not start a token (a
 * lookbehind in the expression would be tried at every place: about a quarter slower over a page).
 * Together: the leftmost whole-token occurrence, the longest at its place, what the search below finds
 * and keeps of overlapping occurrences, in a pass of the engine's compiled matcher (about three times
 * quicker over a page than the pass in JavaScript). One expression per class of first character
 * (firstClass): the engine skips ahead only where an expression's first characters are few, and a
 * recording's values (account numbers, keys, passwords) begin with digits and letters alike: over a
 * page, 18 values took 470 µs in one expression and 205 µs in four (543 -> 427 µs in a recording, where
 * the page is new each time). Values of two classes never start at one place, so each place's longest
 * is its own expression's. Undefined past PATTERN_VALUES or PATTERN_CHARACTERS, or when the engine
 * refuses one.
 */
function tokenPatterns(values: readonly string[], reading: Reading): RegExp[] | undefined {
  let characters = 0;
  for (const value of values) characters += value.length;
  if (values.length === 0 || values.length > PATTERN_VALUES || characters > PATTERN_CHARACTERS)
    return undefined;
  const classes: string[][] = [[], [], [], []];
  for (const value of values) classes[firstClass(value)]!.push(value);
  try {
    return classes
      .filter((group) => group.length > 0)
      .map((group) => {
        const longestFirst = [...group].sort((a, b) => b.length - a.length);
        const alternatives = longestFirst.map((value) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
        return new RegExp(`(?:${alternatives.join('|')})${reading.notAWordNext}`, 'g');
      });
  } catch {
    return undefined;
  }
}

export function buildIndex(
  forms: ReadonlyMap<string, string>,
  reading: Reading,
  pattern = true,
): SearchIndex {
  const values = [...forms.keys()];
  const spansPieces = {
    items: values.some((value) => PIECE_EDGE.test(value)),
    objects: values.some((value) => OBJECT_CUT.test(value)),
  };
  const found = pattern ? tokenPatterns(values, reading) : undefined;
  const index: SearchIndex =
    values.length <= FEW_VALUES
      ? { values, forms, reading, spansPieces }
      : { values, forms, reading, runs: buildRunIndex(values, reading), spansPieces };
  return found === undefined ? index : { ...index, patterns: found };
}

/**
 * Where the run of word characters that starts at or after `at` starts (`end` when none does); read
 * as JSON, an escape is passed over whole: what it stands for is no part of a run (a `\uXXXX` that
 * stands for a letter breaks a run here, and endsToken and startsToken refuse a value beside it).
 */
function nextRun(text: string, at: number, end: number, reading: Reading): number {
  while (at < end) {
    const code = text.charCodeAt(at);
    if (WORD_CODES[code] === 1) return at;
    at = code === BACKSLASH && reading.json ? escapeEnd(text, at) : at + 1;
  }
  return end;
}

/** Where the run of word characters that starts at `at` ends. */
function runEnd(text: string, at: number, end: number): number {
  while (at < end && WORD_CODES[text.charCodeAt(at)] === 1) at++;
  return at;
}

function buildRunIndex(values: readonly string[], reading: Reading): RunIndex {
  const byRun = new Map<number, Searched[]>();
  const runLengths = new Uint8Array(MAX_SEARCHED + 1);
  const hashBits = new Uint32Array(1 << (HASH_BITS - 5));
  const unrunned: string[] = [];
  for (const value of values) {
    const runStart = nextRun(value, 0, value.length, reading);
    if (runStart === value.length) {
      unrunned.push(value);
      continue;
    }
    const end = runEnd(value, runStart, value.length);
    const hash = hashOf(value, runStart, end);
    const list = byRun.get(hash) ?? [];
    list.push({ value, runStart, runLength: end - runStart });
    byRun.set(hash, list);
    runLengths[end - runStart] = 1;
    hashBits[(hash & BIT_MASK) >>> 5]! |= 1 << (hash & 31);
  }
  return { byRun, runLengths, hashBits, unrunned };
}

/** Whether `text[start, end)` is a whole token, read as `reading` reads the text. */
const isToken = (text: string, start: number, end: number, reading: Reading) =>
  reading.startsToken(text, start) && reading.endsToken(text, end);

/** Each value's whole-token occurrences in `text`, one value at a time, as [start, end). */
const occurrencesOfEach = (text: string, values: readonly string[], reading: Reading): [number, number][] => {
  const found: [number, number][] = [];
  for (const value of values) {
    for (let start = text.indexOf(value); start >= 0; start = text.indexOf(value, start + 1))
      if (isToken(text, start, start + value.length, reading)) found.push([start, start + value.length]);
  }
  return found;
};

/** Every whole-token occurrence of a searched value in `text`, as [start, end). */
export const occurrences = (text: string, search: SearchIndex): [number, number][] => {
  const { reading } = search;
  if (search.runs === undefined) return occurrencesOfEach(text, search.values, reading);
  const found: [number, number][] = [];
  const { byRun, runLengths, hashBits, unrunned } = search.runs;
  const end = text.length;
  for (let runStart = nextRun(text, 0, end, reading); runStart < end; ) {
    const at = runEnd(text, runStart, end);
    const length = at - runStart;
    const next = nextRun(text, at, end, reading);
    // Most runs have a length no value's first run has: hashed only when one has it.
    if (length > MAX_SEARCHED || runLengths[length] === 0) {
      runStart = next;
      continue;
    }
    const hash = hashOf(text, runStart, at);
    const candidates =
      (hashBits[(hash & BIT_MASK) >>> 5]! & (1 << (hash & 31))) === 0 ? undefined : byRun.get(hash);
    for (const candidate of candidates ?? []) {
      const start = runStart - candidate.runStart;
      const end = start + candidate.value.length;
      if (
        candidate.runLength === length &&
        start >= 0 &&
        text.startsWith(candidate.value, start) &&
        isToken(text, start, end, reading)
      )
        found.push([start, end]);
    }
    runStart = next;
  }
  found.push(...occurrencesOfEach(text, unrunned, reading));
  return found;
};

/**
 * Each place's longest whole-token occurrence, by every expression (tokenPatterns), as [start, end):
 * an expression goes on from the next place after a match, for one of another expression may overlap
 * it and be kept instead.
 */
export const patternOccurrences = (text: string, search: SearchIndex, patterns: readonly RegExp[]) => {
  const found: [number, number][] = [];
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (search.reading.startsToken(text, match.index))
        found.push([match.index, match.index + match[0].length]);
      pattern.lastIndex = match.index + 1;
    }
  }
  return found;
};
