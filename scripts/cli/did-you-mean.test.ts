import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from './did-you-mean.js';

const COMMANDS = ['simulate', 'exec', 'check', 'pact', 'proxy', 'openapi'];

describe('did you mean', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps as one edit each', () => {
    expect([editDistance('simulte', 'simulate'), editDistance('chekc', 'check')]).toEqual([1, 1]);
    expect(editDistance('exec', 'pact')).toBe(4);
  });

  it('names the command a typing mistake was meant to be, and nothing for an unrelated word', () => {
    expect(didYouMean('simulte', COMMANDS)).toBe(': did you mean simulate?');
    expect(closest('chekc', COMMANDS)).toBe('check');
    expect(closest('openpai', COMMANDS)).toBe('openapi');
    expect(closest('sim', COMMANDS)).toBe('simulate');
    expect(didYouMean('deploy', COMMANDS)).toBe('');
  });

  it('compares options with their dashes', () => {
    expect(closest('--sed', ['--seed', '--store', '--keys'])).toBe('--seed');
    expect(closest('--fromat', ['--format', '--out', '--help'])).toBe('--format');
  });
});
