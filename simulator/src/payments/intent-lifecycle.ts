/**
 * A payment intent after its creation (PaymentIntentStatus in the document): the payer authorizes a
 * PENDING intent (control API or `external_id` trigger), which creates its one charge (choice):
 * SCHEDULED for its `scheduled_date`, processed at 06:00:00 GMT-3 that day by a clock job, or at once
 * for an immediate payment. The intent mirrors its charge: PROCESSING, SUCCEEDED, FAILED, CANCELLED.
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import type { JobRunner } from '../core/job-kinds.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso } from '../pipeline/records.js';
import { paymentsDate, processingInstant } from './cancel-cutoff.js';
import { cancelCharge, settleCharge, startProcessing } from './charge-settlement.js';
import { raiseIntentCancelled } from './payment-events.js';
import type { ChargeRecord, IntentRecord, IntentStatus } from './payment-records.js';
import { CHARGES, getRecord, INTENTS, putRecord, putTransition } from './payment-store.js';
import { armUserDecision, decisionRunner } from './payment-triggers.js';

async function setIntent(tenant: TenantRuntime, intent: IntentRecord, changes: Partial<IntentRecord>) {
  const updated: IntentRecord = { ...intent, ...changes, updated_at: nowIso(tenant) };
  await putRecord(tenant, INTENTS, updated);
  return updated;
}

/** The intent takes its charge's status once the charge leaves SCHEDULED. */
async function mirrorCharge(tenant: TenantRuntime, charge: ChargeRecord | undefined): Promise<void> {
  const intent = await getRecord<IntentRecord>(tenant, INTENTS, charge?.payment_intent ?? '');
  if (intent && charge && intent.status !== charge.status)
    await setIntent(tenant, intent, { status: charge.status as IntentStatus });
}

/**
 * Processes a charge, then settles it, the intent following each step; nothing for a charge cancelled
 * before its date. A job that runs again (its replica died on the way) goes on from where the charge is
 * (each step a transition made once).
 */
async function runCharge(tenant: TenantRuntime, chargeId: string, alreadyProcessing: boolean): Promise<void> {
  const charge = await getRecord<ChargeRecord>(tenant, CHARGES, chargeId);
  if (!charge || charge.status === 'CANCELLED') return;
  if (!alreadyProcessing && charge.status === 'SCHEDULED')
    await mirrorCharge(tenant, await startProcessing(tenant, charge));
  await settleCharge(tenant, chargeId);
  await mirrorCharge(tenant, await getRecord<ChargeRecord>(tenant, CHARGES, chargeId));
}

function newCharge(tenant: TenantRuntime, intent: IntentRecord): ChargeRecord {
  const now = nowIso(tenant);
  const id = tenant.ids.uuid();
  return {
    id,
    charge_id: id,
    created_at: now,
    updated_at: now,
    payment_authorization: null,
    payment_intent: intent.id,
    amount: intent.amount,
    currency: 'BRL',
    // IntentCharge: the scheduled date, or the creation day of an immediate payment (GMT-3).
    date: intent.scheduled_date ?? paymentsDate(Date.parse(intent.created_at)),
    status: 'SCHEDULED',
    failure: null,
    paid_at: null,
    end_to_end_id: null,
    _occurrence: 0,
    _attempts: 0,
  };
}

/** The intent the payer decides on: 404 when unknown, 400 unless PENDING (`verb`: what the decision does). */
async function pendingIntent(
  tenant: TenantRuntime,
  id: string,
  verb: string,
): Promise<Result<IntentRecord, ApiErrors>> {
  const intent = await getRecord<IntentRecord>(tenant, INTENTS, id);
  if (!intent) return err(apiError('not_found', { message: `No payment intent ${id}.` }));
  if (intent.status !== 'PENDING') {
    const message = `Only a PENDING intent can be ${verb}; this one is ${intent.status}.`;
    return err(apiError('invalid_status', { message }));
  }
  return ok(intent);
}

/** The payer authorizes: PENDING -> SCHEDULED or PROCESSING, with the charge; 400 from another status. */
export async function authorizeIntent(
  tenant: TenantRuntime,
  id: string,
): Promise<Result<IntentRecord, ApiErrors>> {
  const pending = await pendingIntent(tenant, id, 'authorized');
  if (!pending.ok) return pending;
  const intent = pending.value;
  const charge = newCharge(tenant, intent);
  await putRecord(tenant, CHARGES, charge);
  const scheduled = intent.scheduled_date !== null;
  const updated: IntentRecord = {
    ...intent,
    status: scheduled ? 'SCHEDULED' : 'PROCESSING',
    authorization_url: null,
    _charge: charge.id,
    updated_at: nowIso(tenant),
  };
  // Decided once: of two decisions at once (the payer's trigger, the control API), one wins.
  if (!(await putTransition(tenant, INTENTS, updated, 'PENDING'))) {
    await tenant.store.delete(CHARGES, charge.id);
    return pendingIntent(tenant, id, 'authorized');
  }
  if (scheduled) {
    const at = Math.max(processingInstant(charge.date), tenant.clock.now());
    await tenant.clock.schedule(at, INTENT_CHARGE, { charge: charge.id, processing: false });
  } else {
    await startProcessing(tenant, charge);
    await tenant.clock.schedule(tenant.clock.now(), INTENT_CHARGE, { charge: charge.id, processing: true });
  }
  return ok(updated);
}

/** The payer refuses: PENDING -> FAILED (no charge is created). */
export async function rejectIntent(
  tenant: TenantRuntime,
  id: string,
): Promise<Result<IntentRecord, ApiErrors>> {
  const pending = await pendingIntent(tenant, id, 'refused');
  if (!pending.ok) return pending;
  const failed: IntentRecord = {
    ...pending.value,
    status: 'FAILED',
    authorization_url: null,
    updated_at: nowIso(tenant),
  };
  // Decided once: of two decisions at once, one wins.
  if (!(await putTransition(tenant, INTENTS, failed, 'PENDING'))) return pendingIntent(tenant, id, 'refused');
  return ok(failed);
}

/** On entering PENDING: the payer's decision when `external_id` is a trigger. */
export function armIntent(tenant: TenantRuntime, intent: IntentRecord): Promise<void> {
  return armUserDecision(tenant, intent.external_id, INTENT_DECISION, intent.id);
}

export const INTENT_CHARGE = 'intent charge';
const INTENT_DECISION = 'payer decision (intent)';

/** The job kinds of an intent: its charge (`{ charge, processing }`) and the payer's decision. */
export const intentJobs: [string, JobRunner][] = [
  [INTENT_CHARGE, (tenant, args) => runCharge(tenant, String(args.charge), args.processing === true)],
  [INTENT_DECISION, decisionRunner(authorizeIntent, rejectIntent)],
];

/** PAY-INTENT-CANCEL-CUTOFF, before the cutoff: the intent and its charge CANCELLED, with the events. */
export async function cancelIntent(
  tenant: TenantRuntime,
  intent: IntentRecord,
  charge: ChargeRecord,
): Promise<void> {
  const cancelled = await setIntent(tenant, intent, { status: 'CANCELLED', cancelled_at: nowIso(tenant) });
  raiseIntentCancelled(tenant, cancelled);
  await cancelCharge(tenant, charge);
}
