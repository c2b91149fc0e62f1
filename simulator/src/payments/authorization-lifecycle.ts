/**
 * The user's side of a payment authorization (PaymentAuthorizationStatus in the document):
 * AWAITING_AUTHORIZATION -> AUTHORIZED when the user confirms (PAY-AUTH-AUTHORIZED: event, then the
 * first charge is scheduled), -> REJECTED when the user refuses, -> EXPIRED at `expires_at`.
 * Confirmation and refusal come from the control API or from the `external_id` triggers.
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import type { JobRunner } from '../core/job-kinds.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { MINUTE_MS } from '../core/time.js';
import { nowIso } from '../pipeline/records.js';
import { continueSchedule } from './authorization-schedule.js';
import { raiseAuthorizationStatus } from './payment-events.js';
import type { AuthorizationRecord, AuthorizationStatus } from './payment-records.js';
import { AUTHORIZATIONS, getRecord, putTransition } from './payment-store.js';
import { armUserDecision, decisionRunner } from './payment-triggers.js';

/** (choice) The user has 30 minutes to confirm (`expires_at`), as in the document's example. */
export const CONFIRMATION_WINDOW_MS = 30 * MINUTE_MS;

const REASONS: Partial<Record<AuthorizationStatus, string>> = {
  REJECTED: 'The user refused the payment authorization at the institution.',
  EXPIRED: 'The user did not confirm the payment authorization before expires_at.',
};

/** Leaves AWAITING_AUTHORIZATION for `status`; 400 `invalid_status` from any other status. */
async function decide(
  tenant: TenantRuntime,
  authorizationId: string,
  status: 'AUTHORIZED' | 'REJECTED' | 'EXPIRED',
): Promise<Result<AuthorizationRecord, ApiErrors>> {
  const authorization = await getRecord<AuthorizationRecord>(tenant, AUTHORIZATIONS, authorizationId);
  if (!authorization)
    return err(apiError('not_found', { message: `No payment authorization ${authorizationId}.` }));
  if (authorization.status !== 'AWAITING_AUTHORIZATION') {
    const message = `The payment authorization is ${authorization.status}; only one AWAITING_AUTHORIZATION can be ${status === 'AUTHORIZED' ? 'confirmed' : 'refused'}.`;
    return err(apiError('invalid_status', { message }));
  }
  const now = nowIso(tenant);
  const updated: AuthorizationRecord = {
    ...authorization,
    status,
    status_reason: REASONS[status] ?? null,
    authorization_url: null,
    authorized_at: status === 'AUTHORIZED' ? now : null,
    updated_at: now,
  };
  // Decided once: of two decisions at once (the expiry, the user, on two replicas), one wins.
  if (!(await putTransition(tenant, AUTHORIZATIONS, updated, 'AWAITING_AUTHORIZATION')))
    return decide(tenant, authorizationId, status);
  // PAY-AUTH-AUTHORIZED: the status event, AUTHORIZED included.
  raiseAuthorizationStatus(tenant, updated);
  // PAY-AUTH-AUTHORIZED: charges are made only from now on.
  if (status === 'AUTHORIZED') await continueSchedule(tenant, authorizationId);
  return ok((await getRecord<AuthorizationRecord>(tenant, AUTHORIZATIONS, authorizationId)) ?? updated);
}

/** PAY-AUTH-AUTHORIZED: the user confirms. */
export const confirmAuthorization = (tenant: TenantRuntime, id: string) => decide(tenant, id, 'AUTHORIZED');

/** The user refuses. */
export const rejectAuthorization = (tenant: TenantRuntime, id: string) => decide(tenant, id, 'REJECTED');

/** After creation: the expiry job, and the user's decision when `external_id` is a trigger. */
export async function armAuthorization(
  tenant: TenantRuntime,
  authorization: AuthorizationRecord,
): Promise<void> {
  await tenant.clock.schedule(Date.parse(authorization.expires_at), AUTHORIZATION_EXPIRY, {
    id: authorization.id,
  });
  await armUserDecision(tenant, authorization.external_id, AUTHORIZATION_DECISION, authorization.id);
}

export const AUTHORIZATION_EXPIRY = 'authorization expiry';
const AUTHORIZATION_DECISION = 'payer decision (authorization)';

/** The job kinds of an authorization: its expiry, and the payer's decision of a trigger. */
export const authorizationJobs: [string, JobRunner][] = [
  [
    AUTHORIZATION_EXPIRY,
    async (tenant, args) => {
      const id = String(args.id);
      const current = await getRecord<AuthorizationRecord>(tenant, AUTHORIZATIONS, id);
      if (current?.status === 'AWAITING_AUTHORIZATION') await decide(tenant, id, 'EXPIRED');
    },
  ],
  [AUTHORIZATION_DECISION, decisionRunner(confirmAuthorization, rejectAuthorization)],
];
