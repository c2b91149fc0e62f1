/**
 * `JSON.stringify(value)` written in pieces whose concatenation is exactly that text: a long array's
 * items each on its own between its opening and its closing (a page's `results`, with the page's other
 * members around them; a retrieval's list), anything else in one piece. Between two pieces there is
 * always a `[`, a `,` or a `]` (exchange/body-pieces.ts says why a long body is kept in pieces).
 */
import { randomUUID } from 'node:crypto';

/** An array with fewer items is written whole. */
const MIN_ITEMS = 8;

/** Stands for the long array while the members around it are written (no traffic can hold it). */
const MARKER = `ofkit-pieces-${randomUUID()}`;
const QUOTED_MARKER = JSON.stringify(MARKER);

/** `[`, each item (`null` for what JSON.stringify writes as null in an array), separated by `,`, `]`. */
function arrayPieces(open: string, items: readonly unknown[], close: string): string[] {
  const pieces = [open];
  for (let index = 0; index < items.length; index++) {
    if (index > 0) pieces.push(',');
    pieces.push(JSON.stringify(items[index]) ?? 'null');
  }
  pieces.push(close);
  return pieces;
}

/** The member holding the longest array, when it holds at least MIN_ITEMS. */
function longestArrayMember(object: Record<string, unknown>): string | undefined {
  let longest: string | undefined;
  let items = MIN_ITEMS - 1;
  for (const name in object) {
    const member = object[name];
    if (Array.isArray(member) && member.length > items) {
      longest = name;
      items = member.length;
    }
  }
  return longest;
}

/** The pieces of `JSON.stringify(value)` for a value parsed from JSON (or a copy of one). */
export function stringifiedPieces(value: unknown): string[] {
  if (Array.isArray(value))
    return value.length < MIN_ITEMS ? [JSON.stringify(value)] : arrayPieces('[', value, ']');
  if (value === null || typeof value !== 'object') return [JSON.stringify(value)];
  const object = value as Record<string, unknown>;
  const name = longestArrayMember(object);
  if (name === undefined) return [JSON.stringify(value)];
  // The object's members in their order, the long array's place held by the marker.
  const around = JSON.stringify({ ...object, [name]: MARKER });
  const at = around.indexOf(QUOTED_MARKER);
  if (at < 0 || around.indexOf(QUOTED_MARKER, at + 1) >= 0) return [JSON.stringify(value)];
  return arrayPieces(
    `${around.slice(0, at)}[`,
    object[name] as unknown[],
    `]${around.slice(at + QUOTED_MARKER.length)}`,
  );
}
