import { describe, expect, it } from 'vitest';
import type { Rule } from '../rules/rule.js';
import { freshSeed, parseSeed, ruleSeed } from './seed.js';
import { matchesRules, selectRules } from './select-rules.js';

const rule = (id: string) => ({ id }) as Rule;
const rules = [
  'AUTH-BASIC',
  'AUTH-ENV-KEYS',
  'ERR-404',
  'PAGE-NAV',
  'SCHEMA:listLinks',
  'SCHEMA:getLink',
].map(rule);
const ids = (patterns: string[]) => selectRules(rules, patterns).map((r) => r.id);

describe('--rules GLOB', () => {
  it('selects every rule without a pattern', () => {
    expect(ids([])).toHaveLength(rules.length);
  });

  it('matches globs on IDs, case-insensitively, comma-separated or repeated', () => {
    expect(ids(['AUTH-*'])).toEqual(['AUTH-BASIC', 'AUTH-ENV-KEYS']);
    expect(ids(['auth-basic,ERR-4??'])).toEqual(['AUTH-BASIC', 'ERR-404']);
    expect(ids(['PAGE-NAV', 'SCHEMA:*Link'])).toEqual(['PAGE-NAV', 'SCHEMA:getLink']);
  });

  it('excludes with !', () => {
    expect(ids(['!SCHEMA:*'])).toEqual(['AUTH-BASIC', 'AUTH-ENV-KEYS', 'ERR-404', 'PAGE-NAV']);
    expect(ids(['AUTH-*,!AUTH-ENV-KEYS'])).toEqual(['AUTH-BASIC']);
    expect(matchesRules('ERR-404', ['*', '!ERR-*'])).toBe(false);
  });
});

describe('seeds', () => {
  it('derives a stable seed per rule, so one rule replays alone', () => {
    expect(ruleSeed(42, 'PAGE-NAV')).toBe(ruleSeed(42, 'PAGE-NAV'));
    expect(ruleSeed(42, 'PAGE-NAV')).not.toBe(ruleSeed(42, 'PAGE-MAX'));
    expect(ruleSeed(42, 'PAGE-NAV')).toBeLessThan(2 ** 31);
  });

  it('takes the default from the clock and parses --seed', () => {
    expect(freshSeed(() => 2 ** 31 + 5)).toBe(5);
    expect(parseSeed('123')).toBe(123);
    expect(parseSeed('-1')).toBeUndefined();
    expect(parseSeed(String(2 ** 31))).toBeUndefined();
  });
});
