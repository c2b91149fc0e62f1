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
  authorizedCharge,
  expectProcessed,
  getAuthorization,
  getCharge,
  PROCESSED,
} from './authorization-steps.js';
import {
  type CutoffFixture,
  type CutoffRunInput,
  cancelMoment,
  cutoffRunArbitrary,
  cutoffRunExamples,
  keepingClock,
  prepareCutoff,
} from './cutoff-runs.js';
import { setClock, V2_HEADERS } from './payment-api.js';
import { creationInstant, settledInstant } from './payment-dates.js';
import { expectEvent } from './payment-events.js';
import { paymentOperations } from './payment-fixture.js';

const OPERATIONS = [
  'createPaymentAuthorization',
  'getPaymentAuthorization',
  'listPaymentAuthorizationCharges',
  'getPaymentAuthorizationCharge',
];

export const payAuthCancelCutoff = defineRule<CutoffRunInput, CutoffFixture>({
  id: 'PAY-AUTH-CANCEL-CUTOFF',
  area: 'payments',
  operations: paymentOperations(['cancelPaymentAuthorization', ...OPERATIONS]),
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 6,
  prepare: (suite) => prepareCutoff(suite, 'cancelPaymentAuthorization', OPERATIONS),
  arbitrary: (_suite, fixture) => cutoffRunArbitrary(fixture),
  examples: (_suite, fixture) => cutoffRunExamples(fixture),
  check: (input, run, fixture) =>
    keepingClock(run, fixture, async () => {
      const { http } = run;
      await setClock(http, creationInstant(input.date, fixture.cutoff));
      const { authorization, charge } = await authorizedCharge(http, fixture, run.config.payments, input);
      const moment = cancelMoment(input, fixture.cutoff);
      await setClock(http, moment.at);
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
