/**
 * A charge's way through the Pix system, shared by authorization and intent charges: PROCESSING (an
 * end-to-end id, one more attempt), then SUCCEEDED with its inflow record or FAILED; or CANCELLED
 * before its cutoff. Each change raises the `*_charge_status` event (ChargeStatus in the document).
 */

import { takeScenario } from '../core/armed-switches.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso } from '../pipeline/records.js';
import { chargeParties } from './charge-parties.js';
import { raiseChargeCancelled, raiseChargeStatus } from './payment-events.js';
import { DEFAULT_PAYER_INSTITUTION, paymentInstitution } from './payment-institutions.js';
import type { ChargeFailure, ChargeRecord } from './payment-records.js';
import { CHARGES, getRecord, putTransition } from './payment-store.js';
import { recordInflow } from './payment-transactions.js';
import { FAILING_AMOUNT } from './payment-triggers.js';

const INSUFFICIENT_FUNDS: ChargeFailure = {
  code: 'insufficient_funds',
  message: 'Saldo insuficiente na conta do pagador.',
};

/** A Pix end-to-end id: `E`, the payer institution's ISPB, `yyyyMMddHHmm` (UTC), 11 characters. */
function endToEndId(tenant: TenantRuntime, institution: string | undefined): string {
  const ispb = (paymentInstitution(institution ?? '') ?? DEFAULT_PAYER_INSTITUTION).ispb;
  const stamp = nowIso(tenant).slice(0, 16).replace(/\D/g, '');
  return `E${ispb}${stamp}${tenant.ids.hex(11)}`;
}

/**
 * Sends the charge (again): PROCESSING, a new end-to-end id, the event. `changes` go with it (retries).
 * Undefined when the charge left its status meanwhile (another replica moved it first).
 */
export async function startProcessing(
  tenant: TenantRuntime,
  charge: ChargeRecord,
  changes: Partial<ChargeRecord> = {},
): Promise<ChargeRecord | undefined> {
  const parties = await chargeParties(tenant, charge);
  const processing: ChargeRecord = {
    ...charge,
    ...changes,
    status: 'PROCESSING',
    failure: null,
    end_to_end_id: endToEndId(tenant, parties?.payer.institution),
    updated_at: nowIso(tenant),
    _attempts: charge._attempts + 1,
  };
  if (!(await putTransition(tenant, CHARGES, processing, charge.status))) return undefined;
  raiseChargeStatus(tenant, processing);
  return processing;
}

/**
 * PAY-CHARGE-RETRY: the scenario switch `next_charge_fails` (at the payer's institution, by id or
 * name, or at any) fails the next charge; the trigger amount fails a charge's first attempt.
 */
async function failureOf(
  tenant: TenantRuntime,
  charge: ChargeRecord,
  institution: string,
): Promise<ChargeFailure | null> {
  const name = paymentInstitution(institution)?.name;
  const switched =
    (await takeScenario(tenant, 'next_charge_fails', { institution })) ||
    (name !== undefined && (await takeScenario(tenant, 'next_charge_fails', { institution: name })));
  if (switched || (charge.amount === FAILING_AMOUNT && charge._attempts === 1)) return INSUFFICIENT_FUNDS;
  return null;
}

/** The outcome of a PROCESSING charge; undefined when it is not processing (settled meanwhile). */
export async function settleCharge(
  tenant: TenantRuntime,
  chargeId: string,
): Promise<ChargeRecord | undefined> {
  const charge = await getRecord<ChargeRecord>(tenant, CHARGES, chargeId);
  if (charge?.status !== 'PROCESSING') return undefined;
  const parties = await chargeParties(tenant, charge);
  const failure = await failureOf(tenant, charge, parties?.payer.institution ?? DEFAULT_PAYER_INSTITUTION.id);
  const now = nowIso(tenant);
  const settled: ChargeRecord = {
    ...charge,
    status: failure ? 'FAILED' : 'SUCCEEDED',
    failure,
    paid_at: failure ? null : now,
    updated_at: now,
  };
  if (!(await putTransition(tenant, CHARGES, settled, 'PROCESSING'))) return undefined;
  raiseChargeStatus(tenant, settled);
  if (!failure) await recordInflow(tenant, settled, parties);
  return settled;
}

/**
 * Cancels a SCHEDULED charge: CANCELLED, `*_charge_cancelled` and `*_charge_status`; undefined when it
 * left SCHEDULED meanwhile (its processing started on another replica).
 */
export async function cancelCharge(
  tenant: TenantRuntime,
  charge: ChargeRecord,
): Promise<ChargeRecord | undefined> {
  const cancelled: ChargeRecord = { ...charge, status: 'CANCELLED', updated_at: nowIso(tenant) };
  if (!(await putTransition(tenant, CHARGES, cancelled, 'SCHEDULED'))) return undefined;
  raiseChargeCancelled(tenant, cancelled);
  raiseChargeStatus(tenant, cancelled);
  return cancelled;
}
