/**
 * A snapshot import forgets the clock's jobs (they are closures over the replaced state); the payments
 * objects it brings in get theirs again from what they are: an AWAITING_AUTHORIZATION authorization
 * and a PENDING enrollment their expiry (at `expires_at`, at once when it has passed), a SCHEDULED
 * charge its processing at 06:00 GMT-3 of its date (PAY-AUTH-CANCEL-CUTOFF and the schedule run from
 * there), a PROCESSING charge its settlement. The payer's decision of an `external_id` trigger is not
 * armed again: it was due at creation, before the snapshot was taken.
 */
import type { TenantRuntime } from '../core/tenant.js';
import { AUTHORIZATION_EXPIRY } from './authorization-lifecycle.js';
import { CHARGE_SETTLEMENT, SCHEDULED_CHARGE } from './authorization-schedule.js';
import { processingInstant } from './cancel-cutoff.js';
import { ENROLLMENT_EXPIRY } from './enrollments.js';
import { INTENT_CHARGE } from './intent-lifecycle.js';
import type { AuthorizationRecord, ChargeRecord, EnrollmentRecord } from './payment-records.js';
import { AUTHORIZATIONS, CHARGES, ENROLLMENTS, listRecords } from './payment-store.js';

async function rearmCharge(tenant: TenantRuntime, charge: ChargeRecord): Promise<void> {
  const now = tenant.clock.now();
  const at = Math.max(processingInstant(charge.date), now);
  if (charge.payment_intent !== null) {
    if (charge.status === 'SCHEDULED' || charge.status === 'PROCESSING')
      await tenant.clock.schedule(charge.status === 'SCHEDULED' ? at : now, INTENT_CHARGE, {
        charge: charge.id,
        processing: charge.status === 'PROCESSING',
      });
    return;
  }
  if (charge.payment_authorization === null) return;
  if (charge.status === 'SCHEDULED') await tenant.clock.schedule(at, SCHEDULED_CHARGE, { charge: charge.id });
  if (charge.status === 'PROCESSING')
    await tenant.clock.schedule(now, CHARGE_SETTLEMENT, {
      charge: charge.id,
      authorization: charge.payment_authorization,
    });
}

/** Schedules the jobs the tenant's stored payments objects are waiting for (after a snapshot import). */
export async function rearmPaymentJobs(tenant: TenantRuntime): Promise<void> {
  for (const authorization of await listRecords<AuthorizationRecord>(tenant, AUTHORIZATIONS))
    if (authorization.status === 'AWAITING_AUTHORIZATION')
      await tenant.clock.schedule(Date.parse(authorization.expires_at), AUTHORIZATION_EXPIRY, {
        id: authorization.id,
      });
  for (const enrollment of await listRecords<EnrollmentRecord>(tenant, ENROLLMENTS))
    if (enrollment.status === 'PENDING')
      await tenant.clock.schedule(Date.parse(enrollment.expires_at), ENROLLMENT_EXPIRY, {
        id: enrollment.id,
      });
  for (const charge of await listRecords<ChargeRecord>(tenant, CHARGES)) await rearmCharge(tenant, charge);
}
