/**
 * Scenario triggers of the payments a user can hit without the control API (README, "Payments
 * (Brazil)"). The control API offers the same effects (`/_ofkit/payment-authorizations/{id}/confirm/`,
 * `.../reject/`, `/_ofkit/payment-intents/{id}/authorize/`, `.../reject/`, scenario `next_charge_fails`).
 */
import type { JobRunner } from '../core/job-kinds.js';
import type { TenantRuntime } from '../core/tenant.js';

/** An `external_id` starting with this: the user confirms at the institution right away (PAY-AUTH-AUTHORIZED). */
export const AUTO_CONFIRM_PREFIX = 'auto-confirm';
/** An `external_id` starting with this: the user refuses at the institution right away. */
export const AUTO_REJECT_PREFIX = 'auto-reject';
/** A charge of this amount fails (`insufficient_funds`) on its first attempt; a retry succeeds (PAY-CHARGE-RETRY). */
export const FAILING_AMOUNT = '999.99';

export type UserDecision = 'confirm' | 'reject';

export function userDecisionOf(externalId: string | null): UserDecision | undefined {
  if (externalId?.startsWith(AUTO_CONFIRM_PREFIX)) return 'confirm';
  if (externalId?.startsWith(AUTO_REJECT_PREFIX)) return 'reject';
  return undefined;
}

/**
 * Arms a trigger: the user's decision runs as a job due now, so the creating request still answers the
 * waiting status and the next request (or clock move) finds the decision made and its event raised.
 */
export async function armUserDecision(
  tenant: TenantRuntime,
  externalId: string | null,
  kind: string,
  id: string,
): Promise<void> {
  const decision = userDecisionOf(externalId);
  if (decision) await tenant.clock.schedule(tenant.clock.now(), kind, { id, decision });
}

/** A runner of a payer decision job (`{ id, decision }`), from the confirm and reject of the object. */
export function decisionRunner(
  confirm: (tenant: TenantRuntime, id: string) => Promise<unknown>,
  reject: (tenant: TenantRuntime, id: string) => Promise<unknown>,
): JobRunner {
  return async (tenant, args) => {
    const id = String(args.id);
    await (args.decision === 'confirm' ? confirm(tenant, id) : reject(tenant, id));
  };
}
