/**
 * Deterministic ids and randomness from a seed (Math.random and randomUUID only here, so a seed replays a run).
 * The same seed and the same calls give the same ids and data.
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

/** sfc32, a small fast PRNG with a 128-bit state; good enough for test data, not for secrets. */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A 32-bit hash of a string (cyrb53's mixing, truncated), to derive per-tenant streams from one seed. */
export function hashSeed(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  return h1 >>> 0;
}

export function createRandom(seed: string): Random {
  const base = hashSeed(seed);
  const next = sfc32(base, hashSeed(`${seed}#1`), hashSeed(`${seed}#2`), hashSeed(`${seed}#3`));
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
  };
}

export function createIds(random: Random): Ids {
  const hex = (length: number) => {
    let out = '';
    while (out.length < length)
      out += Math.floor(random.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  };
  return {
    hex,
    uuid: () => {
      const h = hex(32);
      const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
  };
}

/** A seed for runs that were given none: printed at start so the run can be replayed. */
export function freshSeed(): string {
  return Math.floor(Math.random() * 2 ** 32).toString(16);
}
