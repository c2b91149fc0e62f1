import { describe, expect, it } from 'vitest';
import { fits, SIDE_BY_SIDE } from './rule-schedule.js';

describe('which rules run side by side', () => {
  it('a tenant-wide rule runs alone, and nothing starts beside it', () => {
    expect(fits('alone', [])).toBe(true);
    expect(fits('alone', ['quiet'])).toBe(false);
    for (const lane of ['alone', 'schema', 'quiet', 'state'] as const)
      expect(fits(lane, ['alone'])).toBe(false);
  });

  it('SCHEMA rows beside one another; a rule that stores or compares state beside quiet rules only', () => {
    expect(fits('schema', ['schema', 'quiet'])).toBe(true);
    expect(fits('state', ['quiet'])).toBe(true);
    expect(fits('state', ['state'])).toBe(false);
    expect(fits('state', ['schema'])).toBe(false);
    expect(fits('schema', ['state'])).toBe(false);
  });

  it('a quiet rule beside any but a tenant-wide one, within the limit', () => {
    expect(fits('quiet', ['state'])).toBe(true);
    expect(fits('quiet', ['schema', 'schema'])).toBe(true);
    expect(fits('quiet', Array(SIDE_BY_SIDE).fill('quiet'))).toBe(false);
  });
});
