/**
 * Comparisons that ignore what JSON does not mean: the order of an object's members. Two
 * answers with the same members in another order are the same answer; array order still counts.
 */
import { isDeepStrictEqual } from 'node:util';

/** The same JSON value, whatever the order of object members. */
export const sameValue = (a: unknown, b: unknown): boolean => isDeepStrictEqual(normalize(a), normalize(b));

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, child]) => [key, normalize(child)]));
}

/** JSON text with object members sorted: equal for equal values (keys of maps, sets of records). */
export const canonicalJson = (value: unknown): string => JSON.stringify(normalize(value)) ?? 'undefined';
