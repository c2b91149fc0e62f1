/**
 * The values a recording has redacted so far and their pseudonyms, replaced wherever they show up
 * again (a URL, a header, an error message that quotes a value, a name one record shows in a member the
 * document does not mark). One pass over a text finds every remembered value at once (an Aho-Corasick
 * automaton, rebuilt when values were added): a page of records costs the same whatever the number of
 * values. An occurrence counts only as a whole token: a value inside a longer run of letters or digits
 * (`123456` inside `000123456`) is another value, left alone.
 */

interface State {
  next: Map<number, State>;
  fail: State | undefined;
  /** The length of the longest value ending here (following failure links), 0 for none. */
  match: number;
  /** The value ending exactly here, when one does. */
  value?: string;
}

const newState = (): State => ({ next: new Map(), fail: undefined, match: 0 });

function build(values: Iterable<string>): State {
  const root = newState();
  for (const value of values) {
    let state = root;
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      let child = state.next.get(code);
      if (!child) {
        child = newState();
        state.next.set(code, child);
      }
      state = child;
    }
    state.value = value;
    state.match = value.length;
  }
  const queue: State[] = [];
  for (const child of root.next.values()) {
    child.fail = root;
    queue.push(child);
  }
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    for (const [code, child] of state.next) {
      let fail = state.fail;
      while (fail && !fail.next.has(code)) fail = fail.fail;
      child.fail = fail?.next.get(code) ?? root;
      child.match = Math.max(child.match, child.fail.match);
      queue.push(child);
    }
  }
  return root;
}

const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127;

/** Every value ending at `end` (longest first), through the failure links. */
function* endingAt(state: State): Generator<string> {
  for (let current: State | undefined = state; current && current.match > 0; current = current.fail)
    if (current.value !== undefined) yield current.value;
}

export interface Replacements {
  /** Remembers `raw` -> `pseudonym` (the first pseudonym of a value stays). */
  add(raw: string, pseudonym: string): void;
  /** The pseudonym already given to `raw`, if any. */
  get(raw: string): string | undefined;
  /** `text` with every remembered value (long enough to search for) replaced where it is a whole token. */
  apply(text: string): string;
  size(): number;
}

/** Longer values (a CFDI's XML, a base64 PDF) are replaced where named, not searched for in free text. */
const MAX_SEARCHED = 256;

export function createReplacements(minLength: (raw: string) => number): Replacements {
  const searched = (raw: string) => raw.length >= minLength(raw) && raw.length <= MAX_SEARCHED;
  const map = new Map<string, string>();
  let root: State | undefined;
  const isToken = (text: string, start: number, end: number) =>
    (start === 0 || !isWordCode(text.charCodeAt(start - 1))) &&
    (end === text.length || !isWordCode(text.charCodeAt(end)));
  return {
    add(raw, pseudonym) {
      if (raw === pseudonym || map.has(raw)) return;
      map.set(raw, pseudonym);
      if (searched(raw)) root = undefined;
    },
    get: (raw) => map.get(raw),
    apply(text) {
      if (map.size === 0 || text === '') return text;
      root ??= build([...map.keys()].filter(searched));
      const found: [start: number, end: number][] = [];
      let state = root;
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        while (state !== root && !state.next.has(code)) state = state.fail ?? root;
        state = state.next.get(code) ?? root;
        if (state.match === 0) continue;
        for (const value of endingAt(state)) {
          const start = index + 1 - value.length;
          if (isToken(text, start, index + 1)) {
            found.push([start, index + 1]);
            break;
          }
        }
      }
      if (found.length === 0) return text;
      // Leftmost first; of two starting together, the longer; overlaps dropped.
      found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      let out = '';
      let at = 0;
      for (const [start, end] of found) {
        if (start < at) continue;
        out += text.slice(at, start) + map.get(text.slice(start, end));
        at = end;
      }
      return out + text.slice(at);
    },
    size: () => map.size,
  };
}
