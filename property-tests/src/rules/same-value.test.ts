import { describe, expect, it } from 'vitest';
import { canonicalJson, sameValue } from './same-value.js';

describe('comparisons that ignore member order', () => {
  it('the same members in another order are the same value; array order and values still count', () => {
    const sent = { pix_key: 'a@b.c', account: { branch: '0001', number: '12' }, amount: '1.00' };
    const got = { amount: '1.00', account: { number: '12', branch: '0001' }, pix_key: 'a@b.c' };
    expect(sameValue(got, sent)).toBe(true);
    expect(canonicalJson(got)).toBe(canonicalJson(sent));
    expect(sameValue({ ...got, amount: '1.0' }, sent)).toBe(false);
    expect(sameValue(['a', 'b'], ['b', 'a'])).toBe(false);
  });
});
