/**
 * A recurrent link that cannot log in any more (LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED): its
 * status and its LINK event, as the daily refresh finds it and as the control API sets it on demand.
 * New credentials (PUT /api/links/{id}/, LINK-PUT-CREDENTIALS) bring the link back.
 */
import { ERROR_CATALOGUE } from '../../core/api-error.js';
import type { RaisedEvent } from '../../core/events.js';
import type { TenantRuntime } from '../../core/tenant.js';
import type { StoredRecord } from '../../store/store.js';
import { MFA_SESSION_SECONDS } from '../institutions/scenario-triggers.js';
import { updateStoredLink } from './historical-update.js';

/** The two statuses of a link that cannot log in. */
export type LoginFailure = 'invalid' | 'token_required';

/** LINK-INVALID-CREDENTIALS: the event's data as the catalogue gives it (`status` 400). */
const invalidCredentials = (link: string): RaisedEvent => ({
  webhook_type: 'LINK',
  webhook_code: 'invalid_credentials',
  link_id: link,
  data: {
    error_code: 'login_error',
    error_message: ERROR_CATALOGUE.invalid_credentials.message,
    status: 400,
  },
});

/** LINK-TOKEN-REQUIRED: `status` 428, a session, its expiry and how to get a token; no `webhook_id`. */
const tokenRequired = (tenant: TenantRuntime, link: string): RaisedEvent => ({
  webhook_type: 'LINK',
  webhook_code: 'token_required',
  link_id: link,
  data: {
    error_code: 'token_required',
    error_message: ERROR_CATALOGUE.token_required.message,
    status: 428,
    session: tenant.ids.hex(32),
    expiry: MFA_SESSION_SECONDS,
    token_generation_data: { instructions: 'Use the code sent to your phone.', type: 'numeric', value: '' },
  },
  // LINK-TOKEN-REQUIRED: the catalogue's one event without a `webhook_id`.
  withoutWebhookId: true,
});

/**
 * Sets the link's status to `failure` and, when `notify`, raises its LINK event (the emitter sends no
 * LINK event in the sandbox environment, WEBHOOK-SANDBOX).
 */
export async function failLogin(
  tenant: TenantRuntime,
  link: StoredRecord,
  failure: LoginFailure,
  notify = true,
): Promise<void> {
  const setsStatus = failure === 'token_required' || tenant.policy.links.refusedLoginInvalidates;
  if (setsStatus) await updateStoredLink(tenant, link.id, { status: failure });
  if (!notify) return;
  tenant.emit(failure === 'invalid' ? invalidCredentials(link.id) : tokenRequired(tenant, link.id));
}
