/**
 * `ofkit simulate --seed-from <recording>`: the option is taken out before the simulator's own options
 * are read (it is the bridge's), may be repeated, and a recording that cannot be read stops the start
 * with one line and exit 2, the simulator it had started closed again.
 */
import { describe, expect, it, vi } from 'vitest';
import { simulateCommand, splitSeedFrom } from '../../scripts/cli/simulate.js';

describe('ofkit simulate --seed-from', () => {
  it('is taken out of the simulator options, repeatable, in both spellings', () => {
    expect(
      splitSeedFrom(['--port', '0', '--seed-from', 'a.har', '--seed-from=b.har', '--seed', 'x']),
    ).toEqual({
      recordings: ['a.har', 'b.har'],
      rest: ['--port', '0', '--seed', 'x'],
    });
    expect(splitSeedFrom(['--', '--seed-from', 'a.har'])).toEqual({
      recordings: [],
      rest: ['--', '--seed-from', 'a.har'],
    });
    expect(() => splitSeedFrom(['--seed-from'])).toThrow(/wants a recording/);
  });

  it('a recording that cannot be read: one line, exit 2', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await simulateCommand(['--port', '0', '--seed-from', '/nonexistent/session.har'])).toBe(2);
      expect(String(errors.mock.calls.at(-1)?.[0])).toMatch(
        /^ofkit simulate: --seed-from: cannot read \/nonexistent\/session\.har/,
      );
    } finally {
      log.mockRestore();
      errors.mockRestore();
    }
  });
});
