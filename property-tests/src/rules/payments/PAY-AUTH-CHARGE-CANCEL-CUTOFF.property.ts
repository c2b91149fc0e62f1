/**
 * PAY-AUTH-CHARGE-CANCEL-CUTOFF: a SCHEDULED charge of an AUTHORIZED payment authorization, cancelled
 * before the cutoff (`x-cancel-cutoff` of cancelPaymentAuthorizationCharge: 22:00:00 GMT-3 the day
 * before the charge date) answers 204, is CANCELLED and the charge-cancelled event is sent; from the
 * cutoff on the cancel is an error and the charge is processed on its date. Needs the control API
 * (clock, the user's confirmation).
 */
import { expectStatus } from '../expect-response.js';
import { defineRule, fail } from '../rule.js';
import { chargeAtCancelMoment, chargeUrl, expectProcessed, getCharge } from './authorization-steps.js';
import {
  authorizationCutoffRule,
  type CutoffFixture,
  type CutoffRunInput,
  expectRefused,
  keepingClock,
} from './cutoff-runs.js';
import { setClock, V2_HEADERS } from './payment-api.js';
import { settledInstant } from './payment-dates.js';
import { expectEvent } from './payment-events.js';

const OPERATIONS = [
  'createPaymentAuthorization',
  'listPaymentAuthorizationCharges',
  'getPaymentAuthorizationCharge',
];

export const payAuthChargeCancelCutoff = defineRule<CutoffRunInput, CutoffFixture>({
  id: 'PAY-AUTH-CHARGE-CANCEL-CUTOFF',
  ...authorizationCutoffRule('cancelPaymentAuthorizationCharge', OPERATIONS),
  check: (input, run, fixture) =>
    keepingClock(run, fixture, async () => {
      const { http } = run;
      const { authorization, charge, moment } = await chargeAtCancelMoment(run, fixture, input);
      const what = `cancelling the charge of ${input.date} ${moment.describe}`;
      const url = `${chargeUrl(authorization, charge)}cancel/`;
      const answer = await http.request({ method: 'POST', url, headers: V2_HEADERS });
      if (moment.before) {
        expectStatus(answer, [204], what);
        await expectEvent(run, 'payment_authorization_charge_cancelled', { charge_id: charge }, what);
        const status = (await getCharge(http, authorization, charge)).status;
        if (status !== 'CANCELLED') fail(`${what}: answered 204 but the charge is ${String(status)}`);
        return;
      }
      expectRefused(run, answer, what);
      await setClock(http, settledInstant(input.date));
      await expectProcessed(http, authorization, charge, what);
    }),
});
