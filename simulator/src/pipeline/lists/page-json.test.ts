/**
 * A page's bytes are JSON.stringify of its envelope and its records' public views (private `_` members
 * left out), however many records it holds, in a buffer of its own or in one a lender gives.
 */
import { describe, expect, it } from 'vitest';
import { createReusedBuffers } from '../../server/reused-buffers.js';
import type { StoredRecord } from '../../store/store.js';
import { type Page, pageJson } from './list-query.js';

const record = (index: number): StoredRecord => ({
  id: `3f2a9c1e-1111-4111-8111-${String(index).padStart(12, '0')}`,
  link: null,
  description: `Café ${index} "quoted"`,
  amount: index * 1.5,
  _owner: 'private',
});

const page = (length: number): Page<StoredRecord> => ({
  count: length + 7,
  next: length > 0 ? 'http://127.0.0.1/api/transactions/?page=2' : null,
  previous: null,
  results: Array.from({ length }, (_, index) => record(index)),
});

const expected = ({ results, ...envelope }: Page<StoredRecord>) =>
  JSON.stringify({
    ...envelope,
    results: results.map(({ _owner, ...rest }) => rest),
  });

describe('pageJson', () => {
  it.each([0, 1, 2, 100])('writes a page of %i records as JSON.stringify would', (length) => {
    const each = page(length);
    expect(pageJson(each).toString('utf8')).toBe(expected(each));
    const lender = createReusedBuffers();
    const lent = pageJson(each, lender);
    expect(lender.lent(lent)).toBe(true);
    expect(lent.toString('utf8')).toBe(expected(each));
  });
});
