/**
 * The charges of a payment authorization: list, detail, PAY-AUTH-CHARGE-CANCEL-CUTOFF and
 * PAY-CHARGE-RETRY.
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import { type Handler, json, noContent, type ValidInput } from '../core/handler.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { chargesOf, continueSchedule, scheduleSettlement } from './authorization-schedule.js';
import { cancelCutoffOf, cutoffPassed, describeCutoff } from './cancel-cutoff.js';
import { cancelCharge, startProcessing } from './charge-settlement.js';
import type { AuthorizationRecord, ChargeRecord } from './payment-records.js';
import { AUTHORIZATIONS, CHARGES, findRecord, getRecord, namedIdView, pageOf } from './payment-store.js';
import { failure, refuseInSandbox } from './payment-support.js';

/** (choice) A failed charge can be retried three times (`retries` maximum 3 in the document). */
export const MAX_RETRIES = 3;

interface Owned {
  authorization: AuthorizationRecord;
  charge: ChargeRecord;
}

/** ERR-404: the authorization, and the charge only if it belongs to it. */
async function findOwned(tenant: TenantRuntime, input: ValidInput): Promise<Result<Owned, ApiErrors>> {
  const authorization = await findRecord<AuthorizationRecord>(
    tenant,
    AUTHORIZATIONS,
    input.path.payment_authorization_id!,
  );
  if (!authorization.ok) return authorization;
  const charge = await getRecord<ChargeRecord>(tenant, CHARGES, input.path.charge_id!);
  if (charge?.payment_authorization !== authorization.value.id) {
    const message = `The payment authorization ${authorization.value.id} has no charge ${input.path.charge_id}.`;
    return err(apiError('not_found', { message }));
  }
  return ok({ authorization: authorization.value, charge });
}

const listPaymentAuthorizationCharges: Handler = async ({ input, tenant, request }) => {
  const authorization = await findRecord(tenant, AUTHORIZATIONS, input.path.payment_authorization_id!);
  if (!authorization.ok) return authorization;
  return ok(pageOf(await chargesOf(tenant, authorization.value.id), input.query, request, namedIdView));
};

const getPaymentAuthorizationCharge: Handler = async ({ input, tenant }) => {
  const owned = await findOwned(tenant, input);
  return owned.ok ? ok(json(200, namedIdView(owned.value.charge))) : owned;
};

/** PAY-AUTH-CHARGE-CANCEL-CUTOFF: before the cutoff 204 and the events; after it 400 and the charge runs. */
const cancelPaymentAuthorizationCharge: Handler = async ({ input, tenant, operation }) => {
  const owned = await findOwned(tenant, input);
  if (!owned.ok) return owned;
  const { charge } = owned.value;
  if (charge.status !== 'SCHEDULED')
    return failure(
      'invalid_status',
      undefined,
      `Only a SCHEDULED charge can be cancelled; this one is ${charge.status}.`,
    );
  const cutoff = cancelCutoffOf(tenant, operation);
  if (cutoff && cutoffPassed(tenant.clock.now(), charge.date, cutoff)) {
    const message = `The cancellation cutoff (${describeCutoff(charge.date, cutoff)}) has passed; the charge of ${charge.date} will be processed.`;
    return failure('cancel_cutoff_passed', undefined, message);
  }
  if (!(await cancelCharge(tenant, charge)))
    return failure(
      'invalid_status',
      undefined,
      'The charge is being processed; it can no longer be cancelled.',
    );
  // The cancelled occurrence is used up: the schedule moves on to the next one.
  await continueSchedule(tenant, owned.value.authorization.id);
  return ok(noContent());
};

/** PAY-CHARGE-RETRY: a FAILED charge is sent again (PROCESSING); its outcome follows on the clock. */
const retryPaymentAuthorizationCharge: Handler = async ({ input, tenant }) => {
  const refused = refuseInSandbox(tenant);
  if (refused) return refused;
  const owned = await findOwned(tenant, input);
  if (!owned.ok) return owned;
  const { authorization, charge } = owned.value;
  if (charge.status !== 'FAILED' && tenant.policy.payments.retryOnlyFailed)
    return failure(
      'charge_not_failed',
      undefined,
      `Only a FAILED charge can be retried; this one is ${charge.status}.`,
    );
  const retries = charge.retries ?? 0;
  if (retries >= MAX_RETRIES)
    return failure('retry_limit_reached', undefined, `This charge was already retried ${MAX_RETRIES} times.`);
  // (choice) A cancelled, rejected or expired consent allows no new debit attempt.
  if (authorization.status !== 'AUTHORIZED' && authorization.status !== 'COMPLETED')
    return failure('invalid_status', undefined, `The payment authorization is ${authorization.status}.`);
  const processing = await startProcessing(tenant, charge, { retries: retries + 1 });
  if (!processing) return failure('invalid_status', undefined, 'The charge was retried meanwhile.');
  await scheduleSettlement(tenant, charge.id, authorization.id);
  return ok(json(200, namedIdView(processing)));
};

export const authorizationChargeHandlers: [string, Handler][] = [
  ['listPaymentAuthorizationCharges', listPaymentAuthorizationCharges],
  ['getPaymentAuthorizationCharge', getPaymentAuthorizationCharge],
  ['cancelPaymentAuthorizationCharge', cancelPaymentAuthorizationCharge],
  ['retryPaymentAuthorizationCharge', retryPaymentAuthorizationCharge],
];
