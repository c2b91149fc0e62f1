/**
 * Deterministic pseudonyms: the same value always gets the same pseudonym under one key (one
 * recording), so a redacted recording keeps its joins (a filter by a document number still finds the
 * record that holds it, a resumed MFA session still names the 428's), and each pseudonym still
 * validates against the member's schema, so a redacted recording shows no drift a plain one would not
 * and replays. The key is an HMAC key kept in memory, never written: a pseudonym of a low-entropy value
 * (a CPF, a name) cannot be found by hashing candidates.
 */
import { createHmac } from 'node:crypto';
import type { JsonObject } from '../../../openapi/document/json.js';

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const HEX = '0123456789abcdef';
const DAY_MS = 86_400_000;
/** Dates become days between 1950-01-01 and 2004-12-31: a plausible date of birth, a valid date. */
const FIRST_DAY = Date.UTC(1950, 0, 1);
const DAYS = 20_089;

/** Bytes derived from the key and the value, as many as asked. */
function stream(key: Buffer, kind: string, value: string, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let block = 0; blocks.length * 32 < length; block++) {
    blocks.push(createHmac('sha256', key).update(`${kind}\u0000${block}\u0000${value}`).digest());
  }
  return Buffer.concat(blocks).subarray(0, length);
}

/**
 * Each digit, lower- and upper-case letter replaced by one of its kind; everything else kept. A hex
 * text (digits and a-f only, an MFA session, a request id) stays hex. A first digit that is not 0
 * stays one that is not: a value found again in a JSON text may stand there as a number (`15000` an
 * account's number as a string, an amount `15000.50` elsewhere), and `05972.50` is no JSON.
 */
function sameShape(text: string, bytes: Buffer): string {
  const hex = /^[0-9a-f]*$/.test(text) ? 'abcdef' : /^[0-9A-F]*$/.test(text) ? 'ABCDEF' : undefined;
  let out = '';
  let index = 0;
  for (const char of text) {
    const byte = bytes[index++ % bytes.length]!;
    if (index === 1 && char >= '1' && char <= '9') out += DIGITS[1 + (byte % 9)];
    else if (char >= '0' && char <= '9') out += DIGITS[byte % 10];
    else if (hex !== undefined) out += hex[byte % 6];
    else if (char.toLowerCase() !== char.toUpperCase())
      out += char === char.toUpperCase() ? UPPER[byte % 26] : LOWER[byte % 26];
    else out += char;
  }
  return out;
}

function uuidFrom(bytes: Buffer): string {
  const hex = [...bytes.subarray(0, 16)].map((byte) => HEX[byte >> 4]! + HEX[byte & 15]!).join('');
  const variant = HEX[8 + (bytes[16]! % 4)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function formatOf(schemas: readonly JsonObject[]): string | undefined {
  return schemas.map((schema) => schema.format).find((format) => typeof format === 'string') as
    | string
    | undefined;
}

/** A pseudonym of a string, in the member's format when its schema names one. */
function stringPseudonym(key: Buffer, value: string, format: string | undefined, attempt: number): string {
  const bytes = stream(key, `string${attempt}`, value, Math.max(32, value.length));
  const day = new Date(FIRST_DAY + (bytes.readUInt32BE(0) % DAYS) * DAY_MS).toISOString();
  if (format === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return day.slice(0, 10);
  if (format === 'date-time') return `${day.slice(0, 10)}${value.slice(10)}`;
  if (format === 'uuid') return uuidFrom(bytes);
  return sameShape(value, bytes);
}

/** A pseudonym of a number: as many digits, the same sign, the same decimals. */
function numberPseudonym(key: Buffer, value: number, attempt: number): number {
  const text = String(Math.abs(value));
  const bytes = stream(key, `number${attempt}`, String(value), Math.max(32, text.length));
  let shaped = sameShape(text, bytes);
  // No leading zero: the number keeps its digit count.
  if (shaped.length > 1 && shaped[0] === '0' && shaped[1] !== '.')
    shaped = `${1 + (bytes[0]! % 9)}${shaped.slice(1)}`;
  return Math.sign(value) * Number(shaped);
}

export interface Pseudonymizer {
  /**
   * The pseudonym of a scalar, valid against `schemas` where the shape allows it (`valid` checks one
   * candidate). Strings and numbers only: other values are returned as they are.
   */
  of(
    value: string | number,
    schemas?: readonly JsonObject[],
    valid?: (candidate: unknown) => boolean,
  ): string | number;
}

const ATTEMPTS = 4;

/** Pseudonyms under one key (32 random bytes per recording; tests pass a fixed one). */
export function createPseudonymizer(key: Buffer): Pseudonymizer {
  return {
    of(value, schemas = [], valid = () => true) {
      // A constant or an enumerated value says what kind of thing it is, never who.
      if (schemas.some((schema) => 'const' in schema || Array.isArray(schema.enum))) return value;
      let candidate: string | number = value;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        candidate =
          typeof value === 'number'
            ? numberPseudonym(key, value, attempt)
            : stringPseudonym(key, value, formatOf(schemas), attempt);
        if (candidate !== value && valid(candidate)) return candidate;
      }
      // No candidate validates (a pattern the shape cannot keep): an example of the schema does.
      for (const schema of schemas) {
        const examples = Array.isArray(schema.examples) ? schema.examples : [];
        const example = examples.find((item) => typeof item === typeof value && valid(item));
        if (example !== undefined) return example as string | number;
      }
      return candidate;
    },
  };
}
