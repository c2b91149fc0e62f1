/** The closest of a few known words to a mistyped one, for "did you mean ...?" hints. */

/** Edit distance (insertions, deletions, substitutions and swaps of neighbours count one each). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      if (swapped) row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The known word closest to `word`, when it is close enough to be a typing mistake (at most a third of
 * its letters off, and at least one letter right), or when `word` is the start of exactly one of them.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const prefixed = known.filter((candidate) => word.length >= 3 && candidate.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  const allowed = Math.max(1, Math.floor(Math.max(word.length, (best ?? '').length) / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** `: did you mean simulate?`, or nothing when no known word is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const match = closest(word, known);
  return match === undefined ? '' : `: did you mean ${match}?`;
}
