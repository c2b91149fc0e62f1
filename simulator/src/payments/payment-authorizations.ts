/**
 * Payment authorizations (under development): create, list, detail, cancel. PAY-AUTH-V2-REQUIRED is
 * enforced by the validation stage (the document declares the header required on every operation).
 */

import type { ApiErrors } from '../core/api-error.js';
import { type Handler, json, noContent } from '../core/handler.js';
import { ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso } from '../pipeline/records.js';
import { armAuthorization, CONFIRMATION_WINDOW_MS } from './authorization-lifecycle.js';
import { chargesOf, refreshAuthorization } from './authorization-schedule.js';
import { cancelCutoffOf, cutoffPassed, paymentsDate } from './cancel-cutoff.js';
import { cancelCharge } from './charge-settlement.js';
import { raiseAuthorizationCancelled, raiseAuthorizationStatus } from './payment-events.js';
import { paymentInstitution } from './payment-institutions.js';
import type { AuthorizationRecord, BankAccountRecord, Schedule } from './payment-records.js';
import {
  AUTHORIZATIONS,
  BANK_ACCOUNTS,
  CUSTOMERS,
  findRecord,
  listRecords,
  namedIdView,
  pageOf,
  putRecord,
} from './payment-store.js';
import { type Body, failure, refuseInSandbox } from './payment-support.js';

/** Customer, BUSINESS beneficiary and institution must exist (404, choice); the schedule not start in the past. */
async function checkRequest(tenant: TenantRuntime, body: Body): Promise<Result<true, ApiErrors>> {
  const customer = await findRecord(tenant, CUSTOMERS, String(body.customer), 'customer');
  if (!customer.ok) return customer;
  const beneficiary = await findRecord<BankAccountRecord>(
    tenant,
    BANK_ACCOUNTS,
    String(body.beneficiary),
    'beneficiary',
  );
  if (!beneficiary.ok) return beneficiary;
  if (beneficiary.value.type !== 'BUSINESS' || !beneficiary.value.active)
    return failure('invalid', 'beneficiary', 'The beneficiary must be an active BUSINESS bank account.');
  if (!paymentInstitution(String(body.institution)))
    return failure('not_found', 'institution', `No payment institution ${String(body.institution)}.`);
  const schedule = body.schedule as Body;
  const today = paymentsDate(tenant.clock.now());
  if (String(schedule.start_date) < today)
    return failure(
      'invalid',
      'schedule.start_date',
      `The first charge cannot be before today (${today}, GMT-3).`,
    );
  if (schedule.end_date !== undefined && String(schedule.end_date) < String(schedule.start_date))
    return failure('invalid', 'schedule.end_date', 'The schedule cannot end before it starts.');
  return ok(true);
}

function newAuthorization(tenant: TenantRuntime, body: Body): AuthorizationRecord {
  const id = tenant.ids.uuid();
  const now = tenant.clock.now();
  const schedule = body.schedule as Body;
  const institution = paymentInstitution(String(body.institution))!;
  return {
    id,
    payment_authorization_id: id,
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    status: 'AWAITING_AUTHORIZATION',
    status_reason: null,
    customer: String(body.customer),
    beneficiary: String(body.beneficiary),
    institution: institution.id,
    description: String(body.description),
    external_id: (body.external_id as string | undefined) ?? null,
    schedule: {
      frequency: schedule.frequency as Schedule['frequency'],
      start_date: String(schedule.start_date),
      end_date: (schedule.end_date as string | undefined) ?? null,
      occurrences: (schedule.occurrences as number | undefined) ?? null,
      amount: String(schedule.amount),
    },
    currency: 'BRL',
    // (choice) A consent page of the payer's institution; the simulator does not serve it.
    authorization_url: `https://${institution.name.replaceAll('_', '-')}.ofkit.test/consent?payment_authorization=${id}`,
    callback_url: String(body.callback_url),
    expires_at: new Date(now + CONFIRMATION_WINDOW_MS).toISOString(),
    authorized_at: null,
    cancelled_at: null,
    next_charge_date: null,
  };
}

const createPaymentAuthorization: Handler = async ({ input, tenant }) => {
  const refused = refuseInSandbox(tenant);
  if (refused) return refused;
  const body = input.body as Body;
  const checked = await checkRequest(tenant, body);
  if (!checked.ok) return checked;
  const authorization = newAuthorization(tenant, body);
  await putRecord(tenant, AUTHORIZATIONS, authorization);
  armAuthorization(tenant, authorization);
  return ok(json(201, namedIdView(authorization)));
};

const listPaymentAuthorizations: Handler = async ({ input, tenant, request }) =>
  ok(pageOf(await listRecords(tenant, AUTHORIZATIONS), input.query, request, namedIdView));

const getPaymentAuthorization: Handler = async ({ input, tenant }) => {
  const found = await findRecord(tenant, AUTHORIZATIONS, input.path.payment_authorization_id!);
  return found.ok ? ok(json(200, namedIdView(found.value))) : found;
};

/**
 * PAY-AUTH-CANCEL-CUTOFF: cancelled in both cases (204, events); before the cutoff of the next charge
 * that charge is cancelled too, after it the charge stays SCHEDULED and runs.
 */
const cancelPaymentAuthorization: Handler = async ({ input, tenant, operation }) => {
  const found = await findRecord<AuthorizationRecord>(
    tenant,
    AUTHORIZATIONS,
    input.path.payment_authorization_id!,
  );
  if (!found.ok) return found;
  const { status } = found.value;
  if (status !== 'AWAITING_AUTHORIZATION' && status !== 'AUTHORIZED')
    return failure('invalid_status', undefined, `A ${status} payment authorization cannot be cancelled.`);
  const now = nowIso(tenant);
  const cancelled: AuthorizationRecord = {
    ...found.value,
    status: 'CANCELLED',
    authorization_url: null,
    cancelled_at: now,
    updated_at: now,
  };
  await putRecord(tenant, AUTHORIZATIONS, cancelled);
  const next = (await chargesOf(tenant, cancelled.id)).find((charge) => charge.status === 'SCHEDULED');
  const beforeCutoff =
    next !== undefined && !cutoffPassed(tenant.clock.now(), next.date, cancelCutoffOf(tenant, operation));
  raiseAuthorizationStatus(tenant, cancelled);
  raiseAuthorizationCancelled(tenant, cancelled, beforeCutoff);
  if (next && beforeCutoff) await cancelCharge(tenant, next);
  await refreshAuthorization(tenant, cancelled.id);
  return ok(noContent());
};

export const paymentAuthorizationHandlers: [string, Handler][] = [
  ['createPaymentAuthorization', createPaymentAuthorization],
  ['listPaymentAuthorizations', listPaymentAuthorizations],
  ['getPaymentAuthorization', getPaymentAuthorization],
  ['cancelPaymentAuthorization', cancelPaymentAuthorization],
];
