/**
 * PAY-INTENT-CANCEL-CUTOFF: a scheduled one-off payment intent (to a bank account or a Pix key),
 * authorized by the payer, or its scheduled charge, cancelled before the cutoff (`x-cancel-cutoff` of
 * cancelPaymentIntent / cancelPaymentIntentCharge: 23:59:00 GMT-3 the day before the payment date)
 * answers 204 and the cancellation event is sent; from the cutoff on the cancel is an error and the
 * payment stays. Needs the control API (clock, the payer's authorization).
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { expectStatus } from '../expect-response.js';
import { defineRule, fail, isSkip, type RunContext } from '../rule.js';
import { sameValue } from '../same-value.js';
import {
  type CutoffFixture,
  type CutoffRunInput,
  cancelMoment,
  cutoffRunArbitrary,
  cutoffRunExamples,
  expectRefused,
  keepingClock,
  prepareCutoff,
} from './cutoff-runs.js';
import { getIntent, intentUrl, scheduledIntent } from './intent-steps.js';
import { setClock } from './payment-api.js';
import { pixKeyArbitrary } from './payment-bodies.js';
import { creationInstant, cutoffOf, settledInstant } from './payment-dates.js';
import { expectEvent } from './payment-events.js';
import { paymentOperations } from './payment-fixture.js';

interface Input extends CutoffRunInput {
  /** What is cancelled: the intent itself or its scheduled charge. */
  target: 'intent' | 'charge';
  /** The beneficiary: a Pix key (completed by PATCH first) or the registered bank account. */
  pixKey: JsonObject | null;
}

const OPERATIONS = [
  'createPaymentIntent',
  'completePaymentIntent',
  'getPaymentIntent',
  'listPaymentIntentCharges',
];

/** The cancel of `target`, its URL and the event it sends before the cutoff. */
function cancelOf(
  target: Input['target'],
  ids: { intent: string; charge: string },
): { url: string; event: string; match: Record<string, string> } {
  return target === 'intent'
    ? {
        url: `${intentUrl(ids.intent)}cancel/`,
        event: 'payment_intent_cancelled',
        match: { payment_intent_id: ids.intent },
      }
    : {
        url: `${intentUrl(ids.intent)}charges/${encodeURIComponent(ids.charge)}/cancel/`,
        event: 'payment_intent_charge_cancelled',
        match: { charge_id: ids.charge },
      };
}

async function runCancel(input: Input, run: RunContext, fixture: CutoffFixture): Promise<void> {
  const { http } = run;
  await setClock(http, creationInstant(input.date, fixture.cutoff));
  const ids = await scheduledIntent(http, fixture, input);
  const moment = cancelMoment(input, fixture.cutoff);
  await setClock(http, moment.at);
  const cancel = cancelOf(input.target, ids);
  const what = `cancelling the scheduled ${input.target} of ${input.date} ${moment.describe}`;
  const answer = await http.request({ method: 'POST', url: cancel.url });
  if (moment.before) {
    expectStatus(answer, [204], what);
    return expectEvent(run, cancel.event, cancel.match, what);
  }
  expectRefused(run, answer, what);
  const status = (await getIntent(http, ids.intent)).status;
  if (status === 'CANCELLED') fail(`${what}: the cancel was refused, yet the intent is CANCELLED`);
  // The payment runs on its date: settled now, so no charge of this run is left for later clock moves.
  await setClock(http, settledInstant(input.date));
}

export const payIntentCancelCutoff = defineRule<Input, CutoffFixture>({
  id: 'PAY-INTENT-CANCEL-CUTOFF',
  area: 'payments',
  operations: paymentOperations(['cancelPaymentIntent', 'cancelPaymentIntentCharge', ...OPERATIONS]),
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 6,
  async prepare(suite) {
    const fixture = await prepareCutoff(suite, 'cancelPaymentIntent', [
      'cancelPaymentIntentCharge',
      ...OPERATIONS,
    ]);
    if (isSkip(fixture)) return fixture;
    const chargeCutoff = cutoffOf(suite.document, 'cancelPaymentIntentCharge');
    if (!sameValue(chargeCutoff, fixture.cutoff)) {
      throw new Error('cancelPaymentIntent and cancelPaymentIntentCharge name different x-cancel-cutoffs');
    }
    return fixture;
  },
  arbitrary: (_suite, fixture) =>
    fc
      .tuple(
        cutoffRunArbitrary(fixture),
        fc.constantFrom('intent', 'charge'),
        fc.option(pixKeyArbitrary(), { nil: null }),
      )
      .map(([input, target, pixKey]) => ({ ...input, target, pixKey })),
  examples: (_suite, fixture) =>
    cutoffRunExamples(fixture).map((input, index) => ({
      ...input,
      // Both targets on both sides of the cutoff: intent, charge, charge, intent.
      target: (index + Math.floor(index / 2)) % 2 === 0 ? 'intent' : 'charge',
      pixKey: null,
    })),
  check: (input, run, fixture) => keepingClock(run, fixture, () => runCancel(input, run, fixture)),
});
