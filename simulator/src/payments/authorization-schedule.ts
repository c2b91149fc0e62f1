/**
 * The charges of an AUTHORIZED payment authorization on the tenant's virtual clock: one SCHEDULED
 * charge at a time (the next occurrence, created when the previous one settles or is cancelled),
 * processed at 06:00:00 GMT-3 of its date (choice) by a clock job, so advancing the clock past a
 * charge date runs it and raises its events. The authorization's `next_charge_date` follows, and it
 * becomes COMPLETED once its last charge SUCCEEDED or was CANCELLED.
 */
import type { JobRunner } from '../core/job-kinds.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso } from '../pipeline/records.js';
import { processingInstant } from './cancel-cutoff.js';
import { settleCharge, startProcessing } from './charge-settlement.js';
import { raiseAuthorizationStatus } from './payment-events.js';
import type { AuthorizationRecord, ChargeRecord } from './payment-records.js';
import { AUTHORIZATIONS, CHARGES, getRecord, listRecords, putRecord } from './payment-store.js';
import { hasOccurrence, occurrenceDate } from './schedule-dates.js';

/** The authorization's charges, in occurrence order. */
export async function chargesOf(tenant: TenantRuntime, authorizationId: string): Promise<ChargeRecord[]> {
  const charges = await listRecords<ChargeRecord>(tenant, CHARGES);
  return charges
    .filter((charge) => charge.payment_authorization === authorizationId)
    .sort((a, b) => a._occurrence - b._occurrence);
}

/**
 * The job of a scheduled charge: nothing for a cancelled one; a job that runs again (its replica died
 * on the way) goes on from where the charge is (each step a transition made once).
 */
async function runScheduledCharge(tenant: TenantRuntime, chargeId: string): Promise<void> {
  const charge = await getRecord<ChargeRecord>(tenant, CHARGES, chargeId);
  if (!charge || charge.status === 'CANCELLED' || charge.payment_authorization === null) return;
  if (charge.status === 'SCHEDULED') await startProcessing(tenant, charge);
  await settleAndContinue(tenant, chargeId, charge.payment_authorization);
}

export const SCHEDULED_CHARGE = 'scheduled charge';
export const CHARGE_SETTLEMENT = 'charge settlement';

/** Schedules the settlement of a charge put to PROCESSING (a retry, PAY-CHARGE-RETRY). */
export const scheduleSettlement = (tenant: TenantRuntime, chargeId: string, authorizationId: string) =>
  tenant.clock.schedule(tenant.clock.now(), CHARGE_SETTLEMENT, {
    charge: chargeId,
    authorization: authorizationId,
  });

/** The job kinds of an authorization's charges: a scheduled charge (`{ charge }`), a settlement. */
export const authorizationScheduleJobs: [string, JobRunner][] = [
  [SCHEDULED_CHARGE, (tenant, args) => runScheduledCharge(tenant, String(args.charge))],
  [
    CHARGE_SETTLEMENT,
    (tenant, args) => settleAndContinue(tenant, String(args.charge), String(args.authorization)),
  ],
];

/** Settles a PROCESSING charge, then moves the schedule on. */
export async function settleAndContinue(tenant: TenantRuntime, chargeId: string, authorizationId: string) {
  await settleCharge(tenant, chargeId);
  await continueSchedule(tenant, authorizationId);
}

async function scheduleOccurrence(tenant: TenantRuntime, authorization: AuthorizationRecord, n: number) {
  const now = nowIso(tenant);
  const id = tenant.ids.uuid();
  const charge: ChargeRecord = {
    id,
    charge_id: id,
    created_at: now,
    updated_at: now,
    payment_authorization: authorization.id,
    payment_intent: null,
    amount: authorization.schedule.amount,
    currency: 'BRL',
    date: occurrenceDate(authorization.schedule, n),
    status: 'SCHEDULED',
    failure: null,
    retries: 0,
    paid_at: null,
    end_to_end_id: null,
    _occurrence: n,
    _attempts: 0,
  };
  await putRecord(tenant, CHARGES, charge);
  const at = Math.max(processingInstant(charge.date), tenant.clock.now());
  await tenant.clock.schedule(at, SCHEDULED_CHARGE, { charge: id });
}

/**
 * Moves the schedule on: while AUTHORIZED, the next occurrence is scheduled once the latest charge is
 * no longer SCHEDULED or PROCESSING (a FAILED charge does not stop the schedule); then refreshes
 * `next_charge_date` and the completion.
 */
export async function continueSchedule(tenant: TenantRuntime, authorizationId: string): Promise<void> {
  const authorization = await getRecord<AuthorizationRecord>(tenant, AUTHORIZATIONS, authorizationId);
  if (!authorization) return;
  const latest = (await chargesOf(tenant, authorizationId)).at(-1);
  const next = latest === undefined ? 0 : latest._occurrence + 1;
  const open = latest?.status === 'SCHEDULED' || latest?.status === 'PROCESSING';
  if (authorization.status === 'AUTHORIZED' && !open && hasOccurrence(authorization.schedule, next))
    await scheduleOccurrence(tenant, authorization, next);
  await refreshAuthorization(tenant, authorizationId);
}

/** `next_charge_date` from the SCHEDULED charge; COMPLETED when nothing is left and the last one settled. */
export async function refreshAuthorization(tenant: TenantRuntime, authorizationId: string): Promise<void> {
  const authorization = await getRecord<AuthorizationRecord>(tenant, AUTHORIZATIONS, authorizationId);
  if (!authorization) return;
  const charges = await chargesOf(tenant, authorizationId);
  const scheduled = charges.find((charge) => charge.status === 'SCHEDULED');
  const latest = charges.at(-1);
  const done =
    authorization.status === 'AUTHORIZED' &&
    latest !== undefined &&
    (latest.status === 'SUCCEEDED' || latest.status === 'CANCELLED') &&
    !hasOccurrence(authorization.schedule, latest._occurrence + 1);
  const nextChargeDate = scheduled?.date ?? null;
  if (!done && nextChargeDate === authorization.next_charge_date) return;
  const updated: AuthorizationRecord = {
    ...authorization,
    next_charge_date: nextChargeDate,
    status: done ? 'COMPLETED' : authorization.status,
    updated_at: nowIso(tenant),
  };
  await putRecord(tenant, AUTHORIZATIONS, updated);
  if (done) raiseAuthorizationStatus(tenant, updated);
}
