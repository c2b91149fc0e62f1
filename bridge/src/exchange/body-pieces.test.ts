/** A long body's pieces: kept beside its text, joined without a copy, and measured in UTF-8 once. */
import { describe, expect, it } from 'vitest';
import { bodyByteLength, joinedPieces, keepBodyPieces, piecesByteLength } from './body-pieces.js';

describe('body pieces', () => {
  it('measures a text by its pieces as UTF-8 measures the whole, characters of any width', () => {
    const pieces = ['{"a":"ação",', '"b":"😀"', ',"c":"x"}'];
    const text = joinedPieces(pieces);
    const holder = {};
    keepBodyPieces(holder, pieces);
    expect(bodyByteLength(holder, text)).toBe(Buffer.byteLength(text));
    expect(bodyByteLength({}, text)).toBe(Buffer.byteLength(text));
    expect(bodyByteLength(holder, undefined)).toBe(0);
  });

  it('counts an array of pieces once: a second holder of the same pieces reads the count kept', () => {
    const pieces = ['[1,', '2]'];
    expect(piecesByteLength(pieces)).toBe(5);
    // Pieces are never changed once kept: a count kept for the array answers again.
    (pieces as string[])[0] = '[10000,';
    expect(piecesByteLength(pieces)).toBe(5);
    expect(piecesByteLength([...pieces])).toBe(9);
  });

  it('measures frozen pieces too', () => {
    const pieces = Object.freeze(['"é"', '']);
    expect(piecesByteLength(pieces)).toBe(4);
    expect(piecesByteLength(pieces)).toBe(4);
  });
});
