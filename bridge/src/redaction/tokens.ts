/**
 * Where a remembered value counts as found (search-index.ts): as a whole token, neither its first
 * character nor its last next to a letter or digit of the text. Two ways of reading a text:
 *
 * - as it is (a header, a URL, a form body, an error message): each UTF-16 unit is a character;
 * - as JSON text (a body, evidence): a value is written there in its JSON form (`Maria "Mafê"` as
 *   `Maria \"Mafê\"`), an escape is one character, the one it stands for (`\n` is a line break, no
 *   letter; `\u0041` is `A`), and no occurrence starts inside an escape. Read as it is, a value holding
 *   a quote was found across a member's edge (`note":"Maria` in `{"note":"Maria Souza"}`), and a
 *   value right after `\n` was taken for part of a word (`n`) and left in the text.
 */

export const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;

/** isWordCode of every UTF-16 code unit, looked up (a scan reads every character of a body). */
export const WORD_CODES = (() => {
  const table = new Uint8Array(65_536);
  for (let code = 0; code < table.length; code++) table[code] = isWordCode(code) ? 1 : 0;
  return table;
})();

/** A word character as isWordCode reads one, in an expression (UTF-16 units: no `u` flag). */
const WORD_CLASS = '[0-9A-Za-z\\u0080-\\uffff]';
/**
 * A `\uXXXX` escape that stands for a word character (hex of 0030-0039, 0041-005A, 0061-007A,
 * 0080-FFFF), in an expression.
 */
const WORD_ESCAPE =
  '\\\\u(?:003[0-9]|004[1-9a-fA-F]|005[0-9aA]|006[1-9a-fA-F]|007[0-9aA]|00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})';

export const BACKSLASH = 92;
const LETTER_U = 117;

export interface Reading {
  readonly json: boolean;
  /** How a value is written in a text read this way. */
  form(raw: string): string;
  /** Whether an occurrence may start at `at`: not inside an escape, no word character before it. */
  startsToken(text: string, at: number): boolean;
  /** Whether an occurrence that ends at `at` ends a token: no word character after it. */
  endsToken(text: string, at: number): boolean;
  /** An expression's tail that refuses a word character next (what endsToken refuses). */
  readonly notAWordNext: string;
}

export const AS_IT_IS: Reading = {
  json: false,
  form: (raw) => raw,
  startsToken: (text, at) => at === 0 || WORD_CODES[text.charCodeAt(at - 1)] === 0,
  endsToken: (text, at) => at === text.length || WORD_CODES[text.charCodeAt(at)] === 0,
  notAWordNext: `(?!${WORD_CLASS})`,
};

/** How many backslashes stand right before `at`. */
function backslashesBefore(text: string, at: number): number {
  let count = 0;
  while (at - count > 0 && text.charCodeAt(at - count - 1) === BACKSLASH) count++;
  return count;
}

const hexValue = (text: string, start: number): number => {
  const hex = text.slice(start, start + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
};

/**
 * Whether JSON writes `text` as it is between its quotes: no quote, backslash, control character or
 * lone surrogate (asked of every value a page's walk replaces: a loop, not a JSON.stringify each).
 */
export function writtenAsItIs(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === BACKSLASH) return false;
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    // A high surrogate followed by a low one is a pair, written as it is; anything else is escaped.
    if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
    index++;
  }
  return true;
}

/** The one-letter escapes JSON.stringify writes (`\b \t \n \f \r`, `\"`, `\\`), by their letter's code. */
const SHORT_ESCAPES = new Set([98, 116, 110, 102, 114, 34, 92]);
/** Control characters JSON.stringify writes as one letter (backspace, tab, line feed, form feed, return). */
const SHORT_CONTROLS = new Set([8, 9, 10, 12, 13]);

/**
 * Whether every escape in `text` is written as JSON.stringify writes it (a one-letter escape, or
 * `\u00XX` in small hex for a control character without one): then each value in the text stands in
 * its JSON form (`Reading.form`), where the search over it finds it. A server may write otherwise:
 * `\u00e3` for `ã`, `\/` for `/`, `\u000A`; and a surrogate escaped is left to the slow way too.
 */
export function escapedAsJsonWrites(text: string): boolean {
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', at)) {
    const letter = text.charCodeAt(at + 1);
    if (SHORT_ESCAPES.has(letter)) {
      at += 2;
      continue;
    }
    if (letter !== LETTER_U) return false;
    const hex = text.slice(at + 2, at + 6);
    const code = /^[0-9a-f]{4}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
    if (code < 0 || code >= 0x20 || SHORT_CONTROLS.has(code)) return false;
    at += 6;
  }
  return true;
}

/** Where the escape that starts at `at` (a backslash) ends: `\uXXXX` six units, any other two. */
export const escapeEnd = (text: string, at: number) => at + (text.charCodeAt(at + 1) === LETTER_U ? 6 : 2);

export const AS_JSON: Reading = {
  json: true,
  form: (raw) => JSON.stringify(raw).slice(1, -1),
  startsToken(text, at) {
    if (at === 0) return true;
    const before = text.charCodeAt(at - 1);
    // An odd run of backslashes: `at` is the letter of an escape. An even one ends in `\\`, a backslash.
    if (before === BACKSLASH) return backslashesBefore(text, at) % 2 === 0;
    if (WORD_CODES[before] === 0) return true;
    // A word character: the letter of a one-letter escape (`\n`: a line break, but `\u` is unfinished),
    // the last digit of a `\uXXXX` (what it stands for decides), or a character written as it is.
    if (at >= 2 && text.charCodeAt(at - 2) === BACKSLASH && backslashesBefore(text, at - 1) % 2 === 1)
      return before !== LETTER_U;
    if (at >= 6 && text.charCodeAt(at - 5) === LETTER_U && backslashesBefore(text, at - 5) % 2 === 1) {
      const code = hexValue(text, at - 4);
      return code >= 0 && !isWordCode(code);
    }
    return false;
  },
  endsToken(text, at) {
    if (at === text.length) return true;
    const next = text.charCodeAt(at);
    if (next !== BACKSLASH) return WORD_CODES[next] === 0;
    if (text.charCodeAt(at + 1) !== LETTER_U) return true;
    const code = hexValue(text, at + 2);
    return code < 0 || !isWordCode(code);
  },
  notAWordNext: `(?!${WORD_CLASS}|${WORD_ESCAPE})`,
};
