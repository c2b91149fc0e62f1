/**
 * PAY-AUTH-CANCEL-CUTOFF: an AUTHORIZED payment authorization is cancelled (204, CANCELLED) whenever
 * the cancel comes; before the cutoff of its next charge (`x-cancel-cutoff` of
 * cancelPaymentAuthorization: 22:00:00 GMT-3 the day before) the cancellation event is sent and that
 * charge never runs; from the cutoff on that charge still runs on its date. Needs the control API.
 */
import { expectStatus } from '../expect-response.js';
import { defineRule, fail } from '../rule.js';
import {
  authorizationUrl,
  chargeAtCancelMoment,
  expectProcessed,
  getAuthorization,
  getCharge,
  PROCESSED,
} from './authorization-steps.js';
import {
  authorizationCutoffRule,
  type CutoffFixture,
  type CutoffRunInput,
  keepingClock,
} from './cutoff-runs.js';
import { setClock, V2_HEADERS } from './payment-api.js';
import { settledInstant } from './payment-dates.js';
import { expectEvent } from './payment-events.js';

const OPERATIONS = [
  'createPaymentAuthorization',
  'getPaymentAuthorization',
  'listPaymentAuthorizationCharges',
  'getPaymentAuthorizationCharge',
];

export const payAuthCancelCutoff = defineRule<CutoffRunInput, CutoffFixture>({
  id: 'PAY-AUTH-CANCEL-CUTOFF',
  ...authorizationCutoffRule('cancelPaymentAuthorization', OPERATIONS),
  check: (input, run, fixture) =>
    keepingClock(run, fixture, async () => {
      const { http } = run;
      const { authorization, charge, moment } = await chargeAtCancelMoment(run, fixture, input);
      const what = `cancelling the authorization whose next charge is on ${input.date} ${moment.describe}`;
      const url = `${authorizationUrl(authorization)}cancel/`;
      expectStatus(await http.request({ method: 'POST', url, headers: V2_HEADERS }), [204], what);
      const status = (await getAuthorization(http, authorization)).status;
      if (status !== 'CANCELLED') fail(`${what}: answered 204 but the authorization is ${String(status)}`);
      if (moment.before) {
        await expectEvent(
          run,
          'payment_authorization_cancelled',
          { payment_authorization_id: authorization },
          what,
        );
      }
      await setClock(http, settledInstant(input.date));
      if (!moment.before) return expectProcessed(http, authorization, charge, what);
      const chargeStatus = (await getCharge(http, authorization, charge)).status;
      if (typeof chargeStatus === 'string' && PROCESSED.includes(chargeStatus)) {
        fail(`${what}: cancelled before the cutoff, yet its next charge ran (${chargeStatus})`);
      }
    }),
});
