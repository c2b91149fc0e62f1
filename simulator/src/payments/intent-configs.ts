/**
 * PAY-INTENT-CONFIGS: the five beneficiary/payer configurations of a payment intent. The schema's
 * closed oneOf already refused any other combination; here the ids must name records (404) and the
 * objects created in the request must be valid, all before anything is stored.
 */

import type { ApiErrors } from '../core/api-error.js';
import { ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { bankAccountFromRequest } from './bank-accounts.js';
import { checkDocument } from './brazilian-documents.js';
import { customerFromRequest } from './customers.js';
import type { BankAccountRecord, CustomerRecord } from './payment-records.js';
import { BANK_ACCOUNTS, CUSTOMERS, findRecord, putRecord } from './payment-store.js';
import { type Body, failure } from './payment-support.js';

export interface IntentParties {
  customer: CustomerRecord;
  /** Null when paying to a Pix key. */
  beneficiary: BankAccountRecord | null;
  /** Records created by this request, stored once the whole request is valid. */
  created: { customer?: CustomerRecord; beneficiary?: BankAccountRecord };
}

async function resolveCustomer(
  tenant: TenantRuntime,
  body: Body,
): Promise<Result<IntentParties['created'] & { record: CustomerRecord }, ApiErrors>> {
  if (typeof body.customer === 'string') {
    const found = await findRecord<CustomerRecord>(tenant, CUSTOMERS, body.customer, 'customer');
    return found.ok ? ok({ record: found.value }) : found;
  }
  // (choice) Objects created within an intent use the V1 request formats: intents take no version header.
  const created = customerFromRequest(tenant, body.customer as Body, 'customer.');
  return created.ok ? ok({ record: created.value, customer: created.value }) : created;
}

async function resolveBeneficiary(
  tenant: TenantRuntime,
  body: Body,
): Promise<Result<{ record: BankAccountRecord | null; beneficiary?: BankAccountRecord }, ApiErrors>> {
  if (body.pix_key !== undefined) {
    const key = body.pix_key as { type: string; value: string };
    const wrong =
      key.type === 'CPF' || key.type === 'CNPJ' ? checkDocument(key.value, 'pix_key.value') : undefined;
    return wrong ? { ok: false, error: wrong } : ok({ record: null });
  }
  if (typeof body.beneficiary === 'string') {
    const found = await findRecord<BankAccountRecord>(tenant, BANK_ACCOUNTS, body.beneficiary, 'beneficiary');
    if (!found.ok) return found;
    if (found.value.type !== 'BUSINESS' || !found.value.active)
      return failure('not_found', 'beneficiary', `No active BUSINESS bank account ${body.beneficiary}.`);
    return ok({ record: found.value });
  }
  const account = body.beneficiary as Body;
  if (account.type !== 'BUSINESS')
    return failure('invalid', 'beneficiary.type', 'A beneficiary created in the request must be BUSINESS.');
  const created = await bankAccountFromRequest(tenant, account, 'beneficiary.');
  return created.ok ? ok({ record: created.value, beneficiary: created.value }) : created;
}

/** The payer and the beneficiary of a create request, with what it creates. */
export async function resolveIntentParties(
  tenant: TenantRuntime,
  body: Body,
): Promise<Result<IntentParties, ApiErrors>> {
  const customer = await resolveCustomer(tenant, body);
  if (!customer.ok) return customer;
  const beneficiary = await resolveBeneficiary(tenant, body);
  if (!beneficiary.ok) return beneficiary;
  return ok({
    customer: customer.value.record,
    beneficiary: beneficiary.value.record,
    created: { customer: customer.value.customer, beneficiary: beneficiary.value.beneficiary },
  });
}

/** Stores what the request created. */
export async function storeCreated(tenant: TenantRuntime, created: IntentParties['created']): Promise<void> {
  if (created.customer) await putRecord(tenant, CUSTOMERS, created.customer);
  if (created.beneficiary) await putRecord(tenant, BANK_ACCOUNTS, created.beneficiary);
}
