/**
 * Bank accounts: PAY-VERSION-HEADER (V1 flat holder document, V2 nested) and PAY-BANK-ACCOUNT-DUP
 * (institution + agency + number of an active account is refused; deactivated ones are ignored;
 * reactivation is checked again).
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import { type Handler, json } from '../core/handler.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { checkDocument, documentTypeOf } from './brazilian-documents.js';
import { paymentInstitution } from './payment-institutions.js';
import type { BankAccountRecord, CustomerType } from './payment-records.js';
import { BANK_ACCOUNTS, CUSTOMERS, findRecord, listRecords, pageOf, putRecord } from './payment-store.js';
import { type Body, failure, type ResourceVersion, versionMismatch, versionOf } from './payment-support.js';

/** PAY-VERSION-HEADER: the account in the format the request's header selects. */
export function bankAccountView(account: BankAccountRecord, version: ResourceVersion) {
  const { holder_name: name, holder_identifier: number } = account;
  const holder =
    version === 'V1'
      ? { name, identifier: number }
      : { name, identifier: { type: documentTypeOf(number), number } };
  return {
    id: account.id,
    created_at: account.created_at,
    ...(version === 'V2' && { updated_at: account.updated_at }),
    type: account.type,
    customer: account.customer,
    institution: account.institution,
    agency: account.agency,
    number: account.number,
    account_type: account.account_type,
    holder,
    active: account.active,
  };
}

/** PAY-BANK-ACCOUNT-DUP: an active account (other than `except`) with the same banking details. */
async function activeDuplicate(
  tenant: TenantRuntime,
  account: Pick<BankAccountRecord, 'institution' | 'agency' | 'number'>,
  except?: string,
): Promise<Result<true, ApiErrors>> {
  const accounts = await listRecords<BankAccountRecord>(tenant, BANK_ACCOUNTS);
  const duplicate = accounts.find(
    (other) =>
      (other.active || !tenant.policy.payments.duplicatesIgnoreInactive) &&
      other.id !== except &&
      other.institution === account.institution &&
      other.agency === account.agency &&
      other.number === account.number,
  );
  if (!duplicate) return ok(true);
  const message = `The active bank account ${duplicate.id} has this institution, agency and number; deactivate it first.`;
  return err(apiError('duplicated', { field: 'number', message }));
}

/** The holder's document against the account type: INDIVIDUAL with a CPF, BUSINESS with a CNPJ (choice). */
function checkHolder(body: Body, holderDigits: string, prefix: string): Result<true, ApiErrors> {
  const business = body.type === 'BUSINESS';
  if (business && body.customer !== undefined)
    return failure('invalid', `${prefix}customer`, 'A BUSINESS account (the organization) has no customer.');
  if (!business && body.customer === undefined)
    return failure('required', `${prefix}customer`, 'An INDIVIDUAL account needs its payer (`customer`).');
  if (business !== (documentTypeOf(holderDigits) === 'CNPJ')) {
    const message = business ? 'A BUSINESS holder needs a CNPJ.' : 'An INDIVIDUAL holder needs a CPF.';
    return failure('invalid', `${prefix}holder.identifier`, message);
  }
  const wrong = checkDocument(holderDigits, `${prefix}holder.identifier`);
  return wrong ? err(wrong) : ok(true);
}

/**
 * A bank account from a create request (V1 or V2 body, already schema-valid), checked and not stored
 * yet; `prefix` places the fields of an account nested in another request (`beneficiary.`).
 */
export async function bankAccountFromRequest(
  tenant: TenantRuntime,
  body: Body,
  prefix = '',
): Promise<Result<BankAccountRecord, ApiErrors>> {
  const holder = body.holder as Body;
  const digits =
    typeof holder.identifier === 'string' ? holder.identifier : String((holder.identifier as Body).number);
  const holderOk = checkHolder(body, digits, prefix);
  if (!holderOk.ok) return holderOk;
  const institution = String(body.institution);
  if (!paymentInstitution(institution))
    return failure('not_found', `${prefix}institution`, `No payment institution ${institution}.`);
  if (body.customer !== undefined) {
    const customer = await findRecord(tenant, CUSTOMERS, String(body.customer), `${prefix}customer`);
    if (!customer.ok) return customer;
  }
  const details = { institution, agency: String(body.agency), number: String(body.number) };
  const unique = await activeDuplicate(tenant, details);
  if (!unique.ok) return unique;
  const now = nowIso(tenant);
  return ok({
    id: tenant.ids.uuid(),
    created_at: now,
    updated_at: now,
    type: body.type as CustomerType,
    customer: (body.customer as string | undefined) ?? null,
    ...details,
    account_type: String(body.account_type),
    holder_name: String(holder.name),
    holder_identifier: digits,
    active: true,
  });
}

const createBankAccount: Handler = async ({ input, tenant }) => {
  const version = versionOf(input);
  const body = input.body as Body;
  const sent = typeof (body.holder as Body).identifier === 'object' ? 'V2' : 'V1';
  const mismatch = versionMismatch(sent, version, 'holder.identifier');
  if (mismatch) return mismatch;
  const account = await bankAccountFromRequest(tenant, body);
  if (!account.ok) return account;
  await putRecord(tenant, BANK_ACCOUNTS, account.value);
  return ok(json(201, bankAccountView(account.value, version)));
};

const listBankAccounts: Handler = async ({ input, tenant, request }) => {
  const version = versionOf(input);
  const accounts = await listRecords<BankAccountRecord>(tenant, BANK_ACCOUNTS);
  const view = (record: StoredRecord) => bankAccountView(record as BankAccountRecord, version);
  return ok(pageOf(accounts, input.query, request, view));
};

const getBankAccount: Handler = async ({ input, tenant }) => {
  const account = await findRecord<BankAccountRecord>(tenant, BANK_ACCOUNTS, input.path.id!);
  return account.ok ? ok(json(200, bankAccountView(account.value, versionOf(input)))) : account;
};

/** PAY-BANK-ACCOUNT-DUP: `active: false` deactivates; `active: true` reactivates unless a duplicate is active. */
const updateBankAccount: Handler = async ({ input, tenant }) => {
  const found = await findRecord<BankAccountRecord>(tenant, BANK_ACCOUNTS, input.path.id!);
  if (!found.ok) return found;
  const active = (input.body as { active: boolean }).active;
  if (active && !found.value.active) {
    const unique = await activeDuplicate(tenant, found.value, found.value.id);
    if (!unique.ok) return unique;
  }
  const updated: BankAccountRecord = {
    ...found.value,
    active,
    updated_at: active === found.value.active ? found.value.updated_at : nowIso(tenant),
  };
  await putRecord(tenant, BANK_ACCOUNTS, updated);
  return ok(json(200, bankAccountView(updated, versionOf(input))));
};

export const bankAccountHandlers: [string, Handler][] = [
  ['createBankAccount', createBankAccount],
  ['listBankAccounts', listBankAccounts],
  ['getBankAccount', getBankAccount],
  ['updateBankAccount', updateBankAccount],
];
