/** Teeth, cross-cutting rules: each break of the catalogue in a simulator of its own, and the suite fails it. */
import { describe, it } from 'vitest';
import { expectCaught, teethCases } from './teeth-matrix.js';

const { cases, missing } = teethCases('cross-cutting');

describe.concurrent('teeth: cross-cutting rules, each broken on purpose, are caught by the suite', () => {
  it.each(cases)('$name ($brk)', { timeout: 300_000 }, (teeth) => expectCaught(teeth));
  for (const id of missing)
    it.skip(`${id}: the suite has no rule ${id} yet, so its break cannot be shown caught`);
});
