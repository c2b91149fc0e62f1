/**
 * The payment events, raised exactly as openapi/webhooks/payment-events.yaml defines them:
 * `webhook_type` PAYMENT_AUTHORIZATION or PAYMENT_INTENT, `webhook_code` without that prefix, `link_id`
 * null, `data` with the object's id, its status and `updated_at`.
 */
import type { TenantRuntime } from '../core/tenant.js';
import type { AuthorizationRecord, ChargeRecord, IntentRecord } from './payment-records.js';

const raise = (tenant: TenantRuntime, type: string, code: string, data: Record<string, unknown>) =>
  tenant.emit({ webhook_type: type, webhook_code: code, link_id: null, data });

/** PAY-AUTH-AUTHORIZED: `payment_authorization_status`, on every status change of an authorization. */
export function raiseAuthorizationStatus(tenant: TenantRuntime, authorization: AuthorizationRecord): void {
  raise(tenant, 'PAYMENT_AUTHORIZATION', 'status', {
    payment_authorization_id: authorization.id,
    status: authorization.status,
    updated_at: authorization.updated_at,
  });
}

/** PAY-AUTH-CANCEL-CUTOFF: `payment_authorization_cancelled`, before or after the cutoff. */
export function raiseAuthorizationCancelled(
  tenant: TenantRuntime,
  authorization: AuthorizationRecord,
  nextChargeCancelled: boolean,
): void {
  raise(tenant, 'PAYMENT_AUTHORIZATION', 'cancelled', {
    payment_authorization_id: authorization.id,
    status: 'CANCELLED',
    updated_at: authorization.updated_at,
    next_charge_cancelled: nextChargeCancelled,
  });
}

/** The type and the owner member of a charge's events. */
function chargeOwner(charge: ChargeRecord): [string, Record<string, string>] {
  return charge.payment_authorization !== null
    ? ['PAYMENT_AUTHORIZATION', { payment_authorization_id: charge.payment_authorization }]
    : ['PAYMENT_INTENT', { payment_intent_id: charge.payment_intent ?? '' }];
}

/** `*_charge_status`: on every status change of a charge (PROCESSING, SUCCEEDED, FAILED, CANCELLED). */
export function raiseChargeStatus(tenant: TenantRuntime, charge: ChargeRecord): void {
  const [type, owner] = chargeOwner(charge);
  raise(tenant, type, 'charge_status', {
    charge_id: charge.id,
    ...owner,
    status: charge.status,
    updated_at: charge.updated_at,
    failure: charge.failure,
  });
}

/** `*_charge_cancelled`: a scheduled charge was cancelled before its cutoff. */
export function raiseChargeCancelled(tenant: TenantRuntime, charge: ChargeRecord): void {
  const [type, owner] = chargeOwner(charge);
  raise(tenant, type, 'charge_cancelled', {
    charge_id: charge.id,
    ...owner,
    status: 'CANCELLED',
    updated_at: charge.updated_at,
  });
}

/** PAY-INTENT-CANCEL-CUTOFF: `payment_intent_cancelled`. */
export function raiseIntentCancelled(tenant: TenantRuntime, intent: IntentRecord): void {
  raise(tenant, 'PAYMENT_INTENT', 'cancelled', {
    payment_intent_id: intent.id,
    status: 'CANCELLED',
    updated_at: intent.updated_at,
  });
}
