/**
 * What the three cancel-cutoff rules share (PAY-AUTH-CANCEL-CUTOFF, PAY-AUTH-CHARGE-CANCEL-CUTOFF,
 * PAY-INTENT-CANCEL-CUTOFF): the cutoff of the document's `x-cancel-cutoff`, inputs around it, a
 * fixture with the clock to put back, and the checks of an answer before and after the cutoff.
 */
import fc from 'fast-check';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray } from '../expect-response.js';
import { fail, isSkip, type RunContext, type Skip, type SuiteContext, skip } from '../rule.js';
import { type ClockState, restoreClock } from './payment-api.js';
import { amountArbitrary } from './payment-bodies.js';
import {
  type Cutoff,
  type CutoffInput,
  cutoffExamples,
  cutoffInputArbitrary,
  cutoffInstant,
  cutoffOf,
  describeGmt3,
} from './payment-dates.js';
import { type PaymentFixture, paymentOperations, preparePayments } from './payment-fixture.js';

export interface CutoffFixture extends PaymentFixture {
  cutoff: Cutoff;
  clock: ClockState;
}

/** A payment date, the second of the cancel, the amount and how the one-charge schedule ends. */
export interface CutoffRunInput extends CutoffInput {
  amount: string;
  byEndDate: boolean;
}

/** The fixture, with the cutoff of `cancelOperation` read from the document. */
export async function prepareCutoff(
  suite: SuiteContext,
  cancelOperation: string,
  operationIds: readonly string[],
): Promise<CutoffFixture | Skip> {
  const cutoff = cutoffOf(suite.document, cancelOperation);
  if (!cutoff) return skip(`the document gives ${cancelOperation} no x-cancel-cutoff`);
  const fixture = await preparePayments(suite, [cancelOperation, ...operationIds]);
  if (isSkip(fixture)) return fixture;
  if (!fixture.clock) return skip('needs the control API clock');
  return { ...fixture, cutoff, clock: fixture.clock };
}

export const cutoffRunArbitrary = (fixture: CutoffFixture): fc.Arbitrary<CutoffRunInput> =>
  fc
    .tuple(cutoffInputArbitrary(fixture.today), amountArbitrary(), fc.boolean())
    .map(([input, amount, byEndDate]) => ({ ...input, amount, byEndDate }));

/** 21:59:59 vs 22:00:00 (or 23:58:59 vs 23:59:00) GMT-3, next week and on a month end. */
export const cutoffRunExamples = (fixture: CutoffFixture): CutoffRunInput[] =>
  cutoffExamples(fixture.today).map((input) => ({ ...input, amount: '89.90', byEndDate: false }));

/** The instant of the cancel, and how a message names it. */
export function cancelMoment(input: CutoffInput, cutoff: Cutoff) {
  const limit = cutoffInstant(input.date, cutoff);
  const at = limit + input.offsetSeconds * 1000;
  return {
    at,
    before: at < limit,
    describe: `at ${describeGmt3(at)}, ${input.offsetSeconds} s from the cutoff ${describeGmt3(limit)}`,
  };
}

/** After the cutoff: an error (4xx) with the error array. */
export function expectRefused(run: RunContext, answer: HttpResponse, what: string): void {
  if (answer.status < 400 || answer.status >= 500) {
    fail(`${what}: after the cutoff the cancel must be an error, got ${describeAnswer(answer)}`);
  }
  expectErrorArray(run.document, answer, what);
}

/** Runs `body`, then puts the target's clock back where the rule found it. */
export async function keepingClock(
  run: RunContext,
  fixture: CutoffFixture,
  body: () => Promise<void>,
): Promise<void> {
  try {
    await body();
  } finally {
    await restoreClock(run.http, fixture.clock);
  }
}

/**
 * What the cancel-cutoff rules of an authorization share: the control API (the clock, the user's
 * confirmation), six runs over the fixture of `cancelOperation`'s cutoff, the dates and moments drawn.
 */
export function authorizationCutoffRule(cancelOperation: string, operations: readonly string[]) {
  return {
    area: 'payments' as const,
    operations: paymentOperations([cancelOperation, ...operations]),
    tenantWide: 'clock' as const,
    needs: ['control-api' as const],
    runs: 6,
    prepare: (suite: SuiteContext) => prepareCutoff(suite, cancelOperation, operations),
    arbitrary: (_suite: SuiteContext, fixture: CutoffFixture) => cutoffRunArbitrary(fixture),
    examples: (_suite: SuiteContext, fixture: CutoffFixture) => cutoffRunExamples(fixture),
  };
}
