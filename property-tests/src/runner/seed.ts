/**
 * Seeds. A run's seed is printed and replayable; without `--seed` it comes from the wall clock
 * (`Date.now()` modulo 2^31, the same source fast-check uses by default). Each rule runs with a seed
 * derived from the run's seed and its ID, so `--rules <ID> --seed <S>` replays that rule alone.
 */

/** The default seed of a run: the wall clock, modulo 2^31. */
export function freshSeed(now: () => number = Date.now): number {
  return now() % 2 ** 31;
}

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const char of text) {
    value ^= char.codePointAt(0) ?? 0;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** The seed fast-check gets for one rule. */
export function ruleSeed(runSeed: number, ruleId: string): number {
  return ((runSeed ^ hash(ruleId)) >>> 0) % 2 ** 31;
}

/** Parses `--seed`: a non-negative integer below 2^31. */
export function parseSeed(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const seed = Number(text);
  return seed < 2 ** 31 ? seed : undefined;
}
