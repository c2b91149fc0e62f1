/**
 * PAY-AUTH-AUTHORIZED: a new payment authorization is not AUTHORIZED and has no charge; when the user
 * confirms (the control API's confirm action) it becomes AUTHORIZED and the PAYMENT_AUTHORIZATION
 * status event with AUTHORIZED is sent. When the user refuses instead, no charge is ever made, even
 * once its start date has passed, and no AUTHORIZED event is sent.
 */
import fc from 'fast-check';
import { defineRule, fail, type RunContext } from '../rule.js';
import {
  authorizationCharges,
  cancelQuietly,
  createAuthorization,
  getAuthorization,
} from './authorization-steps.js';
import { type CutoffFixture, keepingClock, prepareCutoff } from './cutoff-runs.js';
import { setClock, userAction } from './payment-api.js';
import { amountArbitrary, oneChargeSchedule } from './payment-bodies.js';
import { addDays, settledInstant } from './payment-dates.js';
import { expectEvent, findEvents } from './payment-events.js';
import { paymentOperations } from './payment-fixture.js';

interface Input {
  date: string;
  amount: string;
  byEndDate: boolean;
  decision: 'confirm' | 'reject';
}

const OPERATIONS = [
  'createPaymentAuthorization',
  'getPaymentAuthorization',
  'listPaymentAuthorizationCharges',
];
const STATUS_EVENT = 'payment_authorization_status';

async function confirmed(run: RunContext, id: string): Promise<void> {
  await userAction(run.http, 'payment-authorizations', id, 'confirm');
  const status = (await getAuthorization(run.http, id)).status;
  if (status !== 'AUTHORIZED')
    fail(`after the user confirmed, the authorization is ${String(status)}, not AUTHORIZED`);
  const match = { payment_authorization_id: id, status: 'AUTHORIZED' };
  await expectEvent(run, STATUS_EVENT, match, 'after the user confirmed');
  // Leaves no charge of this run to later clock moves.
  await cancelQuietly(run.http, id);
}

async function refused(run: RunContext, id: string, date: string): Promise<void> {
  await userAction(run.http, 'payment-authorizations', id, 'reject');
  await setClock(run.http, settledInstant(date));
  const status = (await getAuthorization(run.http, id)).status;
  if (status === 'AUTHORIZED') fail('the user refused, yet the authorization is AUTHORIZED');
  const charges = await authorizationCharges(run.http, id);
  if (charges.length > 0)
    fail(`the user refused, yet ${charges.length} charge(s) were made: ${JSON.stringify(charges)}`);
  const events = await findEvents(run, STATUS_EVENT, { payment_authorization_id: id, status: 'AUTHORIZED' });
  if (events.length > 0) fail('the user refused, yet an AUTHORIZED status event was sent');
}

async function runDecision(input: Input, run: RunContext, fixture: CutoffFixture): Promise<void> {
  const schedule = oneChargeSchedule(input.date, input.amount, input.byEndDate);
  const id = await createAuthorization(run.http, fixture, run.config.payments, schedule);
  const created = await getAuthorization(run.http, id);
  if (created.status === 'AUTHORIZED')
    fail('a new payment authorization is AUTHORIZED before the user confirmed');
  const early = await authorizationCharges(run.http, id);
  if (early.length > 0) fail(`charges were made before the user confirmed: ${JSON.stringify(early)}`);
  return input.decision === 'confirm' ? confirmed(run, id) : refused(run, id, input.date);
}

export const payAuthAuthorized = defineRule<Input, CutoffFixture>({
  id: 'PAY-AUTH-AUTHORIZED',
  area: 'payments',
  operations: paymentOperations(['cancelPaymentAuthorization', ...OPERATIONS]),
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 6,
  prepare: (suite) => prepareCutoff(suite, 'cancelPaymentAuthorization', OPERATIONS),
  arbitrary: (_suite, fixture) =>
    fc.record({
      date: fc.integer({ min: 2, max: 120 }).map((days) => addDays(fixture.today, days)),
      amount: amountArbitrary(),
      byEndDate: fc.boolean(),
      decision: fc.constantFrom('confirm', 'reject'),
    }),
  examples: (_suite, fixture) =>
    (['confirm', 'reject'] as const).map((decision) => ({
      date: addDays(fixture.today, 7),
      amount: '89.90',
      byEndDate: false,
      decision,
    })),
  check: (input, run, fixture) => keepingClock(run, fixture, () => runDecision(input, run, fixture)),
});
