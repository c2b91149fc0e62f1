/**
 * The charge of a payment intent (list, detail) and PAY-INTENT-CANCEL-CUTOFF, for the intent and for
 * its scheduled charge: 23:59:00 GMT-3 of the day before the payment date (the operations'
 * `x-cancel-cutoff`).
 */

import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { type Handler, json, noContent } from '../core/handler.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { cancelCutoffOf, cutoffPassed, describeCutoff } from './cancel-cutoff.js';
import { cancelIntent } from './intent-lifecycle.js';
import type { ChargeRecord, IntentRecord } from './payment-records.js';
import {
  CHARGES,
  findRecord,
  getRecord,
  INTENTS,
  listRecords,
  namedIdView,
  pageOf,
} from './payment-store.js';
import { failure } from './payment-support.js';

/** Before the cutoff: both CANCELLED, 204, events; after it 400 and the payment goes through. */
async function cancelBeforeCutoff(
  tenant: TenantRuntime,
  operation: ApiOperation,
  intent: IntentRecord,
  charge: ChargeRecord | undefined,
) {
  if (intent.status !== 'SCHEDULED' || charge?.status !== 'SCHEDULED')
    return failure(
      'invalid_status',
      undefined,
      `Only a SCHEDULED payment can be cancelled; this one is ${charge?.status ?? intent.status}.`,
    );
  const cutoff = cancelCutoffOf(tenant, operation);
  if (cutoff && cutoffPassed(tenant.clock.now(), charge.date, cutoff)) {
    const message = `The cancellation cutoff (${describeCutoff(charge.date, cutoff)}) has passed; the payment of ${charge.date} will be processed.`;
    return failure('cancel_cutoff_passed', undefined, message);
  }
  await cancelIntent(tenant, intent, charge);
  return ok(noContent());
}

const cancelPaymentIntent: Handler = async ({ input, tenant, operation }) => {
  const intent = await findRecord<IntentRecord>(tenant, INTENTS, input.path.id!);
  if (!intent.ok) return intent;
  const charge = await getRecord<ChargeRecord>(tenant, CHARGES, intent.value._charge ?? '');
  return cancelBeforeCutoff(tenant, operation, intent.value, charge);
};

/** ERR-404: the intent, and the charge only if it is the intent's. */
async function findOwned(
  tenant: TenantRuntime,
  intentId: string,
  chargeId: string,
): Promise<Result<[IntentRecord, ChargeRecord], ApiErrors>> {
  const intent = await findRecord<IntentRecord>(tenant, INTENTS, intentId);
  if (!intent.ok) return intent;
  const charge = await getRecord<ChargeRecord>(tenant, CHARGES, chargeId);
  if (charge?.payment_intent !== intentId)
    return err(
      apiError('not_found', { message: `The payment intent ${intentId} has no charge ${chargeId}.` }),
    );
  return ok([intent.value, charge]);
}

const cancelPaymentIntentCharge: Handler = async ({ input, tenant, operation }) => {
  const owned = await findOwned(tenant, input.path.payment_intent_id!, input.path.charge_id!);
  return owned.ok ? cancelBeforeCutoff(tenant, operation, ...owned.value) : owned;
};

const listPaymentIntentCharges: Handler = async ({ input, tenant, request }) => {
  const intent = await findRecord(tenant, INTENTS, input.path.payment_intent_id!);
  if (!intent.ok) return intent;
  const charges = (await listRecords<ChargeRecord>(tenant, CHARGES)).filter(
    (c) => c.payment_intent === intent.value.id,
  );
  return ok(pageOf(charges, input.query, request, namedIdView));
};

const getPaymentIntentCharge: Handler = async ({ input, tenant }) => {
  const owned = await findOwned(tenant, input.path.payment_intent_id!, input.path.charge_id!);
  return owned.ok ? ok(json(200, namedIdView(owned.value[1]))) : owned;
};

export const intentChargeHandlers: [string, Handler][] = [
  ['cancelPaymentIntent', cancelPaymentIntent],
  ['cancelPaymentIntentCharge', cancelPaymentIntentCharge],
  ['listPaymentIntentCharges', listPaymentIntentCharges],
  ['getPaymentIntentCharge', getPaymentIntentCharge],
];
