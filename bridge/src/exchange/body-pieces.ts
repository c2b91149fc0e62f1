/**
 * A long body the redaction wrote, kept as the pieces it was written in (each record of a page on its
 * own) beside its text, their concatenation, which V8 holds as a rope of the pieces without copying
 * them. A flat string past 128 KiB is allocated in memory mapped for it alone and given back once it
 * is garbage, so its pages fault in again for every body: a page of 100 transactions is 134 KB. Whoever
 * reads such a text whole (a search, a slice, its UTF-8 length) makes V8 flatten it into one; the
 * recording's worker reads it by its pieces instead (the HAR entry's size and text, the checks'
 * "is it blank"). Every piece starts and ends between two JSON tokens, never inside a character, so
 * what is read piece by piece is what the whole text would give.
 */

import { attachedFact } from './attached-facts.js';

const piecesByHolder = attachedFact<readonly string[]>('body pieces');
const byteLengthOfPieces = attachedFact<number>('UTF-8 length of the pieces');

/** Remembers `pieces` as the pieces of the body text `holder` (a message, a HAR entry's content) holds. */
export function keepBodyPieces(holder: object, pieces: readonly string[]): void {
  piecesByHolder.set(holder, pieces);
}

/** The pieces of the body text `holder` holds, when it was written in pieces. */
export function bodyPiecesOf(holder: object): readonly string[] | undefined {
  return piecesByHolder.get(holder);
}

/** The pieces joined, as a rope (`+` of long strings makes no copy). */
export function joinedPieces(pieces: readonly string[]): string {
  let text = '';
  for (const piece of pieces) text += piece;
  return text;
}

/**
 * The UTF-8 length of `pieces` joined, counted once per array: the HAR entry's size and DATA-DETAIL's
 * arena both ask for a page's (some 20 µs a page each time).
 */
export function piecesByteLength(pieces: readonly string[]): number {
  let length = byteLengthOfPieces.get(pieces);
  if (length === undefined) {
    length = 0;
    for (const piece of pieces) length += Buffer.byteLength(piece);
    byteLengthOfPieces.set(pieces, length);
  }
  return length;
}

/** The UTF-8 length of the body text `holder` holds (`text`), by its pieces when it has them. */
export function bodyByteLength(holder: object, text: string | undefined): number {
  if (text === undefined) return 0;
  const pieces = bodyPiecesOf(holder);
  return pieces === undefined ? Buffer.byteLength(text) : piecesByteLength(pieces);
}
