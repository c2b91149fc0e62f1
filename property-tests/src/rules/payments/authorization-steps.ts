/**
 * Payment authorizations as the PAY-AUTH-* and PAY-CHARGE-RETRY rules drive them: created with the V2
 * header (PAY-AUTH-V2-REQUIRED), confirmed by the user through the control API (PAY-AUTH-AUTHORIZED),
 * and their charges read back.
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import type { PaymentsConfig } from '../../target/target-config.js';
import { fail, type RunContext } from '../rule.js';
import { type CutoffFixture, type CutoffRunInput, cancelMoment } from './cutoff-runs.js';
import {
  AUTHORIZATIONS,
  expectObject,
  listResults,
  member,
  setClock,
  userAction,
  V2_HEADERS,
} from './payment-api.js';
import { oneChargeSchedule } from './payment-bodies.js';
import { creationInstant } from './payment-dates.js';
import type { PaymentFixture } from './payment-fixture.js';

export const authorizationUrl = (id: string) => `${AUTHORIZATIONS}${encodeURIComponent(id)}/`;
export const chargeUrl = (authorization: string, charge: string) =>
  `${authorizationUrl(authorization)}charges/${encodeURIComponent(charge)}/`;

/** A valid create body: the fixture's payer and beneficiary, the config's payer institution. */
export function authorizationBody(fixture: PaymentFixture, payments: PaymentsConfig, schedule: JsonObject) {
  return {
    customer: fixture.customer.id,
    beneficiary: fixture.beneficiary,
    institution: payments.payerInstitution,
    description: 'Assinatura mensal',
    schedule,
    callback_url: 'https://app.example.com.br/retorno',
  };
}

/** Creates a payment authorization (201); its id. */
export async function createAuthorization(
  http: HttpSession,
  fixture: PaymentFixture,
  payments: PaymentsConfig,
  schedule: JsonObject,
): Promise<string> {
  const json = authorizationBody(fixture, payments, schedule);
  const call = { method: 'POST', url: AUTHORIZATIONS, json, headers: V2_HEADERS };
  const created = await expectObject(http, call, [201], 'creating a payment authorization');
  return member(created, 'payment_authorization_id', 'the created payment authorization');
}

export const getAuthorization = (http: HttpSession, id: string) =>
  expectObject(http, { method: 'GET', url: authorizationUrl(id), headers: V2_HEADERS }, [200], 'reading it');

export const authorizationCharges = (http: HttpSession, id: string) =>
  listResults(http, `${authorizationUrl(id)}charges/`, 'listing its charges', {}, V2_HEADERS);

export const getCharge = (http: HttpSession, authorization: string, charge: string) =>
  expectObject(
    http,
    { method: 'GET', url: chargeUrl(authorization, charge), headers: V2_HEADERS },
    [200],
    'reading the charge',
  );

/** Creates an authorization of one charge on `date` and confirms it; the ids of both. */
export async function authorizedCharge(
  http: HttpSession,
  fixture: PaymentFixture,
  payments: PaymentsConfig,
  input: { date: string; amount: string; byEndDate: boolean },
): Promise<{ authorization: string; charge: string }> {
  const schedule = oneChargeSchedule(input.date, input.amount, input.byEndDate);
  const authorization = await createAuthorization(http, fixture, payments, schedule);
  await userAction(http, 'payment-authorizations', authorization, 'confirm');
  const charges = await authorizationCharges(http, authorization);
  const scheduled = charges.find((charge) => charge.date === input.date && charge.status === 'SCHEDULED');
  if (!scheduled) {
    fail(`after the user confirmed, no SCHEDULED charge on ${input.date}: ${JSON.stringify(charges)}`);
  }
  return { authorization, charge: member(scheduled, 'charge_id', 'the scheduled charge') };
}

/** Statuses of a charge that was processed (it went through, whatever its outcome). */
export const PROCESSED = ['PROCESSING', 'SUCCEEDED', 'FAILED'];

/** The charge was processed: not cancelled, not still waiting. */
export async function expectProcessed(
  http: HttpSession,
  authorization: string,
  charge: string,
  what: string,
): Promise<void> {
  const status = (await getCharge(http, authorization, charge)).status;
  if (typeof status !== 'string' || !PROCESSED.includes(status)) {
    fail(
      `${what}: the charge should have gone through (${PROCESSED.join('/')}), but it is ${String(status)}`,
    );
  }
}

/** Ends a run's authorization so that no charge of it is left to run later (best effort). */
export async function cancelQuietly(http: HttpSession, authorization: string): Promise<void> {
  await http.request({
    method: 'POST',
    url: `${authorizationUrl(authorization)}cancel/`,
    headers: V2_HEADERS,
  });
}

/**
 * A run's set-up before its cancel: an authorization of one charge created and confirmed at the
 * creation instant of its date, then the clock moved to the cancel's moment (before or from the cutoff).
 */
export async function chargeAtCancelMoment(run: RunContext, fixture: CutoffFixture, input: CutoffRunInput) {
  await setClock(run.http, creationInstant(input.date, fixture.cutoff));
  const { authorization, charge } = await authorizedCharge(run.http, fixture, run.config.payments, input);
  const moment = cancelMoment(input, fixture.cutoff);
  await setClock(run.http, moment.at);
  return { authorization, charge, moment };
}
