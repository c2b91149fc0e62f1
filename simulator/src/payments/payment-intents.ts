/**
 * Payment intents: PAY-INTENT-CONFIGS (create), PAY-INTENT-PIX-PATCH (complete), list and detail.
 * Created with a Pix key an intent is REQUIRES_ACTION until the PATCH; with a bank account it is
 * PENDING, waiting for the payer at `authorization_url`.
 */

import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso, publicView, recordAnswer } from '../pipeline/records.js';
import { paymentsDate } from './cancel-cutoff.js';
import { type IntentParties, resolveIntentParties, storeCreated } from './intent-configs.js';
import { armIntent } from './intent-lifecycle.js';
import type { IntentRecord } from './payment-records.js';
import { findRecord, INTENTS, listRecords, pageOf, putRecord } from './payment-store.js';
import { type Body, failure, refuseInSandbox } from './payment-support.js';

/** (choice) The payer's page at the institution; the simulator does not serve it. */
const authorizationUrl = (id: string) => `https://banco-aurora-br.ofkit.test/pay?payment_intent=${id}`;

function newIntent(tenant: TenantRuntime, body: Body, parties: IntentParties): IntentRecord {
  const id = tenant.ids.uuid();
  const now = nowIso(tenant);
  const pixKey = (body.pix_key as IntentRecord['pix_key'] | undefined) ?? null;
  return {
    id,
    created_at: now,
    updated_at: now,
    // PAY-INTENT-PIX-PATCH: a Pix-key intent waits for the PATCH.
    status: pixKey ? 'REQUIRES_ACTION' : 'PENDING',
    amount: String(body.amount),
    currency: 'BRL',
    description: String(body.description),
    provider: 'PIX',
    customer: parties.customer.id,
    beneficiary: parties.beneficiary?.id ?? null,
    pix_key: pixKey,
    scheduled_date: (body.scheduled_date as string | undefined) ?? null,
    authorization_url: pixKey ? null : authorizationUrl(id),
    external_id: (body.external_id as string | undefined) ?? null,
    cancelled_at: null,
    _charge: null,
  };
}

/** PAY-INTENT-CONFIGS: any of the five configurations; nothing is stored unless all of it is valid. */
const createPaymentIntent: Handler = async ({ input, tenant }) => {
  const refused = refuseInSandbox(tenant);
  if (refused) return refused;
  const body = input.body as Body;
  const today = paymentsDate(tenant.clock.now());
  if (body.scheduled_date !== undefined && String(body.scheduled_date) <= today)
    return failure('invalid', 'scheduled_date', `A scheduled payment must be after today (${today}, GMT-3).`);
  const parties = await resolveIntentParties(tenant, body);
  if (!parties.ok) return parties;
  await storeCreated(tenant, parties.value.created);
  const intent = newIntent(tenant, body, parties.value);
  await putRecord(tenant, INTENTS, intent);
  if (intent.status === 'PENDING') armIntent(tenant, intent);
  return ok(json(201, publicView(intent)));
};

const listPaymentIntents: Handler = async ({ input, tenant, request }) =>
  ok(pageOf(await listRecords(tenant, INTENTS), input.query, request, publicView));

const getPaymentIntent: Handler = async ({ input, tenant }) => {
  const found = await findRecord(tenant, INTENTS, input.path.id!);
  return found.ok ? ok(recordAnswer(200, found.value)) : found;
};

/** PAY-INTENT-PIX-PATCH: REQUIRES_ACTION -> PENDING with an `authorization_url`; 400 from another status. */
const completePaymentIntent: Handler = async ({ input, tenant }) => {
  const found = await findRecord<IntentRecord>(tenant, INTENTS, input.path.id!);
  if (!found.ok) return found;
  if (found.value.status !== 'REQUIRES_ACTION' && tenant.policy.payments.intentCompletesOnce) {
    const message = `Only an intent created with a Pix key and not completed yet (REQUIRES_ACTION) can be completed; this one is ${found.value.status}.`;
    return failure('invalid_status', undefined, message);
  }
  const completed: IntentRecord = {
    ...found.value,
    status: 'PENDING',
    authorization_url: authorizationUrl(found.value.id),
    updated_at: nowIso(tenant),
  };
  await putRecord(tenant, INTENTS, completed);
  armIntent(tenant, completed);
  return ok(json(200, publicView(completed)));
};

export const paymentIntentHandlers: [string, Handler][] = [
  ['createPaymentIntent', createPaymentIntent],
  ['listPaymentIntents', listPaymentIntents],
  ['getPaymentIntent', getPaymentIntent],
  ['completePaymentIntent', completePaymentIntent],
];
