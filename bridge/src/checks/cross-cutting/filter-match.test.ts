/** The client's reading of the list filters: FILTER-IN, FILTER-RANGE (inclusive) and FILTER-LOOKUP. */
import { describe, expect, it } from 'vitest';
import type { FilterSpec } from '../../document/filter-spec.js';
import { matchesFilter, memberValues } from './filter-match.js';

const spec = (member: string, lookup: FilterSpec['lookup']): FilterSpec => ({
  param: member,
  member,
  lookup,
});
const record = {
  id: 'a',
  amount: 10.5,
  value_date: '2026-10-31',
  created_at: '2026-10-31T23:00:00Z',
  account: { id: 'acc-1', balance: { current: 100 } },
  streams: [{ account_id: 'x' }, { account_id: 'y' }],
  tags: ['p', 'q'],
  name: 'Padaria Central',
};

describe('matchesFilter', () => {
  it('FILTER-RANGE is inclusive at both ends, by day for dates and date-times', () => {
    expect(matchesFilter(record, spec('value_date', 'range'), '2026-10-01,2026-10-31')).toBe(true);
    expect(matchesFilter(record, spec('created_at', 'range'), '2026-10-31,2026-10-31')).toBe(true);
    expect(matchesFilter(record, spec('amount', 'range'), '10.5,20')).toBe(true);
    expect(matchesFilter(record, spec('amount', 'range'), '11,20')).toBe(false);
  });

  it('FILTER-IN keeps a record whose member is any of the values; an object by its id', () => {
    expect(matchesFilter(record, spec('id', 'in'), 'b,a')).toBe(true);
    expect(matchesFilter(record, spec('account', 'in'), 'acc-2,acc-1')).toBe(true);
    expect(matchesFilter(record, spec('id', 'in'), 'b,c')).toBe(false);
  });

  it('FILTER-LOOKUP: bounds strict and not, exact on numbers, not_in, icontains, allin, through arrays and paths', () => {
    expect(matchesFilter(record, spec('amount', 'gt'), '10.5')).toBe(false);
    expect(matchesFilter(record, spec('amount', 'gte'), '10.5')).toBe(true);
    expect(matchesFilter(record, spec('amount', 'lt'), '11')).toBe(true);
    expect(matchesFilter(record, spec('amount', 'exact'), '10.50')).toBe(true);
    expect(matchesFilter(record, spec('account__balance__current', 'lte'), '100')).toBe(true);
    expect(matchesFilter(record, spec('streams__account_id', 'exact'), 'y')).toBe(true);
    expect(matchesFilter(record, spec('id', 'not_in'), 'b,c')).toBe(true);
    expect(matchesFilter(record, spec('name', 'icontains'), 'central')).toBe(true);
    expect(matchesFilter(record, spec('tags', 'allin'), 'p,q')).toBe(true);
    expect(matchesFilter(record, spec('tags', 'allin'), 'p,r')).toBe(false);
  });

  it('reads a member of that whole name before a path', () => {
    expect(memberValues({ a__b: 1, a: { b: 2 } }, 'a__b')).toEqual([1]);
  });
});
