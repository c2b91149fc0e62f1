/**
 * Who pays and who receives a charge: the payer (customer and their account at the payer's
 * institution) and the beneficiary (the organization's BUSINESS account), for inflow records and for
 * the scenario switches targeted at the payer's institution.
 */
import type { TenantRuntime } from '../core/tenant.js';
import { DEFAULT_PAYER_INSTITUTION } from './payment-institutions.js';
import type {
  AuthorizationRecord,
  BankAccountRecord,
  ChargeRecord,
  CustomerRecord,
  IntentRecord,
  TransactionParty,
} from './payment-records.js';
import {
  AUTHORIZATIONS,
  BANK_ACCOUNTS,
  CUSTOMERS,
  getRecord,
  INTENTS,
  listRecords,
} from './payment-store.js';

export interface ChargeParties {
  payer: TransactionParty;
  /** Undefined when a Pix key resolves to no registered BUSINESS account (choice: no inflow record). */
  beneficiary: BankAccountRecord | undefined;
}

interface Owner {
  customer: string;
  institution: string | undefined;
  beneficiary: string | null;
  pixKey: IntentRecord['pix_key'];
}

async function ownerOf(tenant: TenantRuntime, charge: ChargeRecord): Promise<Owner | undefined> {
  if (charge.payment_authorization !== null) {
    const a = await getRecord<AuthorizationRecord>(tenant, AUTHORIZATIONS, charge.payment_authorization);
    return (
      a && { customer: a.customer, institution: a.institution, beneficiary: a.beneficiary, pixKey: null }
    );
  }
  const intent = await getRecord<IntentRecord>(tenant, INTENTS, charge.payment_intent ?? '');
  return (
    intent && {
      customer: intent.customer,
      institution: undefined,
      beneficiary: intent.beneficiary,
      pixKey: intent.pix_key,
    }
  );
}

/**
 * (choice) A Pix key resolves to the active BUSINESS account whose holder has that CNPJ, else to the
 * tenant's first active BUSINESS account.
 */
function resolvePixKey(accounts: BankAccountRecord[], key: NonNullable<Owner['pixKey']>) {
  const business = accounts.filter((account) => account.type === 'BUSINESS' && account.active);
  return business.find((account) => account.holder_identifier === key.value) ?? business[0];
}

/** (choice) Without a registered account of the payer, a stable one derived from the customer id. */
function derivedAccount(customerId: string): Pick<TransactionParty, 'agency' | 'number'> {
  const digits = String(Number.parseInt(customerId.slice(0, 8), 16) % 100_000_000).padStart(8, '0');
  return { agency: '0001', number: `${digits}-${Number.parseInt(customerId.slice(9, 13), 16) % 10}` };
}

function payerParty(customer: CustomerRecord, accounts: BankAccountRecord[], institution?: string) {
  const own = accounts.filter((a) => a.type === 'INDIVIDUAL' && a.customer === customer.id && a.active);
  const account = own.find((a) => institution === undefined || a.institution === institution);
  const at = institution ?? account?.institution ?? DEFAULT_PAYER_INSTITUTION.id;
  const { agency, number } = account ?? derivedAccount(customer.id);
  return { name: customer.name, identifier: customer.identifier, institution: at, agency, number };
}

export async function chargeParties(
  tenant: TenantRuntime,
  charge: ChargeRecord,
): Promise<ChargeParties | undefined> {
  const owner = await ownerOf(tenant, charge);
  const customer = owner && (await getRecord<CustomerRecord>(tenant, CUSTOMERS, owner.customer));
  if (!owner || !customer) return undefined;
  const accounts = await listRecords<BankAccountRecord>(tenant, BANK_ACCOUNTS);
  const beneficiary = owner.pixKey
    ? resolvePixKey(accounts, owner.pixKey)
    : accounts.find((account) => account.id === owner.beneficiary);
  return { payer: payerParty(customer, accounts, owner.institution), beneficiary };
}
