/**
 * The control API's payment actions (openapi/admin.yaml, tag Payments): the user's decision at the
 * institution, which a real user makes on `authorization_url`.
 */

import type { ApiErrors } from '../core/api-error.js';
import { type Handler, json } from '../core/handler.js';
import { ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { publicView } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { confirmAuthorization, rejectAuthorization } from './authorization-lifecycle.js';
import { authorizeIntent, rejectIntent } from './intent-lifecycle.js';
import { namedIdView } from './payment-store.js';

type Decide = (tenant: TenantRuntime, id: string) => Promise<Result<StoredRecord, ApiErrors>>;

/** A control action on the object named by `parameter`, answering 200 with its view. */
function action(decide: Decide, parameter: string, view: (record: StoredRecord) => unknown): Handler {
  return async ({ input, tenant }) => {
    const decided = await decide(tenant, input.path[parameter]!);
    return decided.ok ? ok(json(200, view(decided.value))) : decided;
  };
}

export function paymentControlHandlers(): [string, Handler][] {
  return [
    ['confirmPaymentAuthorization', action(confirmAuthorization, 'payment_authorization_id', namedIdView)],
    ['rejectPaymentAuthorization', action(rejectAuthorization, 'payment_authorization_id', namedIdView)],
    ['authorizePaymentIntent', action(authorizeIntent, 'payment_intent_id', publicView)],
    ['rejectPaymentIntent', action(rejectIntent, 'payment_intent_id', publicView)],
  ];
}
