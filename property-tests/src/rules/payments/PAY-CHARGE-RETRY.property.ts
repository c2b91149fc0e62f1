/**
 * PAY-CHARGE-RETRY: POST `.../charges/{charge_id}/retry/` on a FAILED charge of an authorization
 * retries it (2xx, and the charge leaves FAILED or counts one more retry); on a charge that has not
 * failed (still SCHEDULED, or processed without failing) it is an error and the charge stays as it
 * was. The failure comes from the control API's `next_charge_fails` scenario at the config's payer
 * institution; the clock moves the charge through its date.
 */
import fc from 'fast-check';
import type { HttpSession } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { authorizedCharge, cancelQuietly, chargeUrl, getCharge } from './authorization-steps.js';
import { type CutoffFixture, keepingClock, prepareCutoff } from './cutoff-runs.js';
import { nextChargeFails, setClock, V2_HEADERS } from './payment-api.js';
import { amountArbitrary } from './payment-bodies.js';
import { addDays, creationInstant, instantAt, settledInstant } from './payment-dates.js';
import { paymentOperations } from './payment-fixture.js';

interface Input {
  date: string;
  amount: string;
  /** When the retry is sent: before the charge date, after it failed, after it was processed. */
  when: 'scheduled' | 'failed' | 'processed';
}

const OPERATIONS = [
  'createPaymentAuthorization',
  'listPaymentAuthorizationCharges',
  'getPaymentAuthorizationCharge',
  'retryPaymentAuthorizationCharge',
];

/** Moves the charge to the state the input asks for; its status and retries then. */
async function reachState(run: RunContext, input: Input, ids: { authorization: string; charge: string }) {
  const { http } = run;
  if (input.when === 'failed') {
    // The eve of the charge date: earlier charges have run, so the switch is left for this one.
    await setClock(http, instantAt(addDays(input.date, -1), '12:00:00'));
    await nextChargeFails(http, run.config.payments.payerInstitution);
  }
  if (input.when !== 'scheduled') await setClock(http, settledInstant(input.date));
  const charge = await getCharge(http, ids.authorization, ids.charge);
  if (input.when === 'failed' && charge.status !== 'FAILED') {
    fail(
      `set-up: with next_charge_fails on, the charge of ${input.date} should have FAILED; it is ${String(charge.status)}`,
    );
  }
  return { status: String(charge.status), retries: Number(charge.retries ?? 0) };
}

async function expectRetried(
  http: HttpSession,
  ids: { authorization: string; charge: string },
  retriesBefore: number,
  what: string,
) {
  const after = await getCharge(http, ids.authorization, ids.charge);
  if (after.status === 'FAILED' && Number(after.retries ?? 0) <= retriesBefore) {
    fail(`${what}: answered 2xx but the charge is still FAILED with ${String(after.retries)} retries`);
  }
}

async function runRetry(input: Input, run: RunContext, fixture: CutoffFixture): Promise<void> {
  const { http } = run;
  await setClock(http, creationInstant(input.date, fixture.cutoff));
  const ids = await authorizedCharge(http, fixture, run.config.payments, { ...input, byEndDate: false });
  const before = await reachState(run, input, ids);
  const what = `retrying a ${before.status} charge (${input.when})`;
  const answer = await http.request({
    method: 'POST',
    url: `${chargeUrl(ids.authorization, ids.charge)}retry/`,
    headers: V2_HEADERS,
  });
  if (before.status === 'FAILED') {
    if (answer.status < 200 || answer.status >= 300)
      fail(`${what}: wanted 2xx, got ${describeAnswer(answer)}`);
    return expectRetried(http, ids, before.retries, what);
  }
  if (answer.status < 400 || answer.status >= 500)
    fail(`${what}: wanted an error (4xx), got ${describeAnswer(answer)}`);
  expectErrorArray(run.document, answer, what);
  const after = (await getCharge(http, ids.authorization, ids.charge)).status;
  if (after !== before.status)
    fail(`${what}: the refused retry changed the charge from ${before.status} to ${String(after)}`);
  if (input.when === 'scheduled') await cancelQuietly(http, ids.authorization);
}

export const payChargeRetry = defineRule<Input, CutoffFixture>({
  id: 'PAY-CHARGE-RETRY',
  area: 'payments',
  operations: paymentOperations(['cancelPaymentAuthorization', ...OPERATIONS]),
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 6,
  prepare: (suite) => prepareCutoff(suite, 'cancelPaymentAuthorization', OPERATIONS),
  arbitrary: (_suite, fixture) =>
    fc.record({
      date: fc.integer({ min: 4, max: 120 }).map((days) => addDays(fixture.today, days)),
      amount: amountArbitrary(),
      when: fc.constantFrom('scheduled', 'failed', 'processed'),
    }),
  examples: (_suite, fixture) =>
    (['failed', 'scheduled', 'processed'] as const).map((when, index) => ({
      date: addDays(fixture.today, 10 + index),
      amount: '89.90',
      when,
    })),
  check: (input, run, fixture) => keepingClock(run, fixture, () => runRetry(input, run, fixture)),
});
