/**
 * Deterministic ids and randomness from a seed (Math.random and randomUUID only here, so a seed replays a run).
 * The same seed and the same calls give the same ids and data, from one version to the next: the tests
 * pin the values of a seed.
 */

export interface Ids {
  /** A version-4-shaped UUID. */
  uuid(): string;
  /** `length` lower-case hex characters (request ids, sessions, webhook ids). */
  hex(length: number): string;
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

const HASH_START_1 = 0xdeadbeef;
const HASH_START_2 = 0x41c6ce57;

/** cyrb53's mixing of `text` into the two halves of its state. */
function absorb(state: [number, number], text: string): [number, number] {
  let [h1, h2] = state;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return [h1, h2];
}

const finish = ([h1, h2]: [number, number]) =>
  (Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)) >>> 0;

/** A 32-bit hash of a string (cyrb53's mixing, truncated), to derive per-tenant streams from one seed. */
export function hashSeed(text: string): number {
  return finish(absorb([HASH_START_1, HASH_START_2], text));
}

/**
 * sfc32, a small fast PRNG with a 128-bit state; good enough for test data, not for secrets. A class,
 * not closures: a tenant, a link's consent and each generated record make one, on the request path.
 */
class Sfc32 implements Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
    for (let i = 0; i < 12; i++) this.#uint32();
  }

  /** The next 32 bits, as an unsigned integer. */
  #uint32(): number {
    const a = this.#a | 0;
    const b = this.#b | 0;
    const c = this.#c | 0;
    const d = this.#d | 0;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    this.#c = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.#uint32() / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

export function createRandom(seed: string): Random {
  // The seed's own hash and those of `seed#1`..`seed#3`, sharing the seed's part of the mixing.
  const prefix = absorb([HASH_START_1, HASH_START_2], seed);
  return new Sfc32(
    finish(prefix),
    finish(absorb(prefix, '#1')),
    finish(absorb(prefix, '#2')),
    finish(absorb(prefix, '#3')),
  );
}

/** Two hex digits for each byte value. */
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

const wordHex = (word: number) =>
  BYTE_HEX[word >>> 24]! +
  BYTE_HEX[(word >>> 16) & 0xff]! +
  BYTE_HEX[(word >>> 8) & 0xff]! +
  BYTE_HEX[word & 0xff]!;

class HexIds implements Ids {
  readonly #random: Random;

  constructor(random: Random) {
    this.#random = random;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += wordHex(Math.floor(this.#random.next() * 0x100000000));
    return out.slice(0, length);
  }

  uuid(): string {
    const h = this.hex(32);
    const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

export function createIds(random: Random): Ids {
  return new HexIds(random);
}

/** A seed for runs that were given none: printed at start so the run can be replayed. */
export function freshSeed(): string {
  return Math.floor(Math.random() * 2 ** 32).toString(16);
}
