/**
 * The one shell-quoting function: whatever a value holds, bash reads it back as one word, unchanged,
 * and runs nothing of it (a pasted curl line runs only itself).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { shellQuote } from './shell-quote.js';

const folder = mkdtempSync(join(tmpdir(), 'ofkit-shell-quote-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What bash prints for `printf %s <word>` run in `folder`. */
function echoed(words: readonly string[]): string[] {
  const script = words.map((word) => `printf '%s\\0' ${shellQuote(word)}`).join('\n');
  // stdin closed: bash reads ~/.bashrc when its stdin is a socket (as Node's pipes are) and SHLVL < 2.
  const run = spawnSync('bash', ['-c', script], {
    cwd: folder,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(run.status).toBe(0);
  return run.stdout.split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it('reads back as the same word, quotes, dollars, backticks and newlines included, running nothing', () => {
    const attempts = ["'$(touch x)'", "a'; touch y; echo '", '`touch z`', '$(touch w)', '\n; touch v', "'"];
    expect(echoed(attempts)).toEqual(attempts);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('holds for any string without NUL (fast-check, fixed seed 43043: replays)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 20 }), (words) => {
        expect(echoed(words)).toEqual(words);
      }),
      { numRuns: 20, seed: 43043 },
    );
    expect(readdirSync(folder)).toEqual([]);
    // Twenty bash processes: seconds on a quiet machine, far more while the other lanes compile.
  }, 120_000);
});
