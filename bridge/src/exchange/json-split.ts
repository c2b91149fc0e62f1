/**
 * A long JSON body read without ever making its text one flat string (body-pieces.ts says why): its
 * bytes are cut where one item of its list ends and the next begins (`},{`), about every 32 KiB, and
 * each cut decoded on its own (every cut is between two ASCII bytes, so the pieces decode to exactly
 * the text's pieces); the pieces are then parsed one by one and the value put together. A cut inside
 * a string, or inside a deeper list, cannot parse (a piece would end inside a string, or with a
 * bracket left open), so a value put together from pieces that all parsed is the value of the whole
 * text; anything else (pretty-printed JSON, one huge record, a list below the top member) is read
 * whole, as before.
 */

import { randomUUID } from 'node:crypto';

/** Cut about this often (bytes): each piece stays far below V8's 128 KiB limit as a string. */
const CUT_EVERY = 32_768;
const BETWEEN_ITEMS = Buffer.from('},{');
const LIST_OPENS = Buffer.from('[{');
const LIST_CLOSES = Buffer.from('}]');

/** Stands for the list while the members around it are parsed (no traffic can hold it). */
const MARKER = `ofkit-list-${randomUUID()}`;

/**
 * The text of `bytes` (UTF-8 JSON) in pieces: what comes before its list with the list's `[`; runs of
 * whole items, separated by `,` pieces; and the list's `]` with what follows. Undefined when no list
 * of objects spans most of it.
 */
export function splitJsonBytes(bytes: Buffer): string[] | undefined {
  const open = bytes.indexOf(LIST_OPENS);
  const close = bytes.lastIndexOf(LIST_CLOSES);
  if (open < 0 || close <= open || close - open < CUT_EVERY) return undefined;
  const pieces = [bytes.toString('utf8', 0, open + 1)];
  let at = open + 1;
  for (let cut = bytes.indexOf(BETWEEN_ITEMS, at + CUT_EVERY); cut >= 0 && cut < close; ) {
    pieces.push(bytes.toString('utf8', at, cut + 1), ',');
    at = cut + 2;
    cut = bytes.indexOf(BETWEEN_ITEMS, at + CUT_EVERY);
  }
  pieces.push(bytes.toString('utf8', at, close + 1), bytes.toString('utf8', close + 1));
  return pieces;
}

/**
 * The value of the text `splitJsonBytes` cut into `pieces`, or undefined when the cuts are not all
 * between items of the top value's list, or the text is no JSON at all (then the whole text is to be
 * parsed: JSON.parse says which).
 */
export function parseSplitJson(pieces: readonly string[]): unknown {
  const items: unknown[] = [];
  for (let index = 1; index < pieces.length - 1; index += 2) {
    let run: unknown;
    try {
      run = JSON.parse(`[${pieces[index]!}]`);
    } catch {
      return undefined;
    }
    for (const item of run as unknown[]) items.push(item);
  }
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  let around: unknown;
  try {
    around = JSON.parse(`${head.slice(0, -1)}${JSON.stringify(MARKER)}${tail.slice(1)}`);
  } catch {
    return undefined;
  }
  if (around === MARKER) return items;
  if (around === null || typeof around !== 'object' || Array.isArray(around)) return undefined;
  const object = around as Record<string, unknown>;
  const names = Object.keys(object).filter((name) => object[name] === MARKER);
  if (names.length !== 1 || names[0] === '__proto__') return undefined;
  object[names[0]!] = items;
  return object;
}
