import { describe, expect, it } from 'vitest';
import { coloursAllowed, createAnsiStripper } from './plain-output.js';

const ESC = String.fromCharCode(0x1b);

describe('colours only on a terminal, never with NO_COLOR', () => {
  it('allows them on a terminal unless NO_COLOR is set to something', () => {
    expect(coloursAllowed({ isTTY: true }, {})).toBe(true);
    expect(coloursAllowed({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(coloursAllowed({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(coloursAllowed({ isTTY: false }, {})).toBe(false);
    expect(coloursAllowed({}, {})).toBe(false);
  });

  it("drops the verifier's ANSI sequences, even one cut between two chunks", () => {
    const stripper = createAnsiStripper();
    const line = `has status code ${ESC}[1m204${ESC}[0m (${ESC}[32mOK${ESC}[0m)\n`;
    const cut = line.indexOf('[32m');
    const out = stripper.push(line.slice(0, cut)) + stripper.push(line.slice(cut)) + stripper.end();
    expect(out).toBe('has status code 204 (OK)\n');
    expect(stripper.push(`${ESC}]8;;https://x${ESC}\\link${ESC}]8;;${ESC}\\ done`)).toBe('link done');
  });
});
