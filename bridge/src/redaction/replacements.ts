/**
 * The values a recording has redacted so far and their pseudonyms: applied to the free text of every
 * later exchange (a URL, a header, an error message that quotes a value), so a value redacted where
 * it was first named is redacted wherever it shows up again.
 */

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface Replacements {
  /** Remembers `raw` -> `pseudonym` (the first pseudonym of a value stays). */
  add(raw: string, pseudonym: string): void;
  /** The pseudonym already given to `raw`, if any. */
  get(raw: string): string | undefined;
  /** `text` with every remembered value replaced (longest first). */
  apply(text: string): string;
  size(): number;
}

export function createReplacements(minLength: (raw: string) => number): Replacements {
  const map = new Map<string, string>();
  let pattern: RegExp | undefined;
  return {
    add(raw, pseudonym) {
      if (raw === pseudonym || map.has(raw)) return;
      map.set(raw, pseudonym);
      pattern = undefined;
    },
    get: (raw) => map.get(raw),
    apply(text) {
      if (map.size === 0 || text === '') return text;
      if (pattern === undefined) {
        const searched = [...map.keys()].filter((raw) => raw.length >= minLength(raw));
        searched.sort((a, b) => b.length - a.length);
        pattern = searched.length === 0 ? /$^/ : new RegExp(searched.map(escapeRegExp).join('|'), 'g');
      }
      return text.replace(pattern, (found) => map.get(found) ?? found);
    },
    size: () => map.size,
  };
}
