/** Teeth, webhooks rules: each break of the catalogue in a simulator of its own, and the suite fails it. */
import { describe, it } from 'vitest';
import { expectCaught, teethCases } from './teeth-matrix.js';

const { cases } = teethCases('webhooks');

describe.concurrent('teeth: webhooks rules, each broken on purpose, are caught by the suite', () => {
  it.each(cases)('$name ($brk)', { timeout: 300_000 }, (teeth) => expectCaught(teeth));
});
