import { stripVTControlCharacters } from 'node:util';

/**
 * The lines that name a failure (a test runner's FAIL and cross marks, error messages), without colour,
 * at most `limit`: a log that CI cuts to its last lines still shows which test failed and why.
 */
export function failureLines(log: string, limit = 40): string[] {
  const plain = stripVTControlCharacters(log);
  const wanted =
    /^\s*(FAIL\b|×|✗|❯ .+ \(\d+ tests? \| \d+ failed)|^\s*(\w*Error|AssertionError)\b[^\n]*:|^\s*npm error|^\s*step failed/;
  const lines = [...new Set(plain.split('\n').filter((line) => wanted.test(line)))].map((line) =>
    line.trimEnd(),
  );
  return lines.length > limit ? [...lines.slice(0, limit), `... and ${lines.length - limit} more`] : lines;
}
