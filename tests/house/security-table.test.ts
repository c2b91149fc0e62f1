/**
 * The threat table of docs/security.md is only as good as its tests: every row names at least one test
 * file, every file it names exists, and every test of tests/security/ is named by a row (a new control
 * gets its row, with the option and default a user needs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The rows of the table whose header starts `| threat |`, each as its cells. */
function threatRows(markdown: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| threat |'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    // A cell may hold `\|` (HOST\|CIDR): split on the other bars only.
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const testsNamed = (cell: string) => [...cell.matchAll(/`([^`]+\.test\.ts)`/g)].map((m) => m[1] as string);

describe('docs/security.md: the threat table', () => {
  const rows = threatRows(readFileSync(join(ROOT, 'docs/security.md'), 'utf8'));

  it('has a row per threat, each with its control, option, and tests that exist', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
    for (const row of rows) {
      expect(row, row[0]).toHaveLength(4);
      const tests = testsNamed(row[3] ?? '');
      expect(tests, row[0]).not.toEqual([]);
      for (const test of tests) expect(existsSync(join(ROOT, test)), test).toBe(true);
    }
  });

  it('names every test of tests/security/', () => {
    const named = new Set(rows.flatMap((row) => testsNamed(row[3] ?? '')));
    const files = readdirSync(join(ROOT, 'tests/security')).filter((file) => file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(named.has(`tests/security/${file}`), file).toBe(true);
  });
});
