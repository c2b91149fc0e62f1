/**
 * Brazilian open finance consents, made the way the real service makes them: registering a link at a
 * Brazilian bank (the open finance network) records the consent the user gives that bank. The consent
 * belongs to its link (`link`), so deleting the link deletes it (LINK-DELETE-SYNC: `/api/consents/` is
 * one of the link's data collections).
 */

import { CONSENTS } from '../core/collections.js';
import type { TenantRuntime } from '../core/tenant.js';
import { createIds, createRandom } from '../ids/seeded-ids.js';
import { nowIso } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { type InstitutionEntry, institutionByName } from './institutions/catalogue.js';

/** (choice) The permission each resource of the link asks the bank for; RESOURCES_READ always. */
const PERMISSION_OF: Readonly<Record<string, string>> = {
  ACCOUNTS: 'ACCOUNTS_READ',
  TRANSACTIONS: 'ACCOUNTS_READ',
  BALANCES: 'ACCOUNTS_BALANCES_READ',
  OWNERS: 'CUSTOMERS_PERSONAL_IDENTIFICATIONS_READ',
  BILLS: 'CREDIT_CARDS_ACCOUNTS_READ',
  INVESTMENTS: 'INVESTMENTS_READ',
  INVESTMENT_TRANSACTIONS: 'INVESTMENTS_READ',
};
const PERMISSION_ORDER = [
  'ACCOUNTS_READ',
  'ACCOUNTS_BALANCES_READ',
  'RESOURCES_READ',
  'CUSTOMERS_PERSONAL_IDENTIFICATIONS_READ',
  'CREDIT_CARDS_ACCOUNTS_READ',
  'INVESTMENTS_READ',
];

/** Banks of the Brazilian open finance network give consents; other institutions do not. */
export const givesConsents = (institution: InstitutionEntry | undefined): boolean =>
  institution?.type === 'bank' && institution.country_codes.includes('BR');

function permissionsFor(resources: readonly string[]): string[] {
  const wanted = new Set(['RESOURCES_READ']);
  for (const resource of resources) {
    const permission = PERMISSION_OF[resource];
    if (permission) wanted.add(permission);
  }
  return PERMISSION_ORDER.filter((permission) => wanted.has(permission));
}

/** (choice) Twelve months, the longest a data-sharing consent of the network may last. */
function expirationOf(createdAt: string): string {
  const date = new Date(createdAt);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString();
}

/**
 * The consent of a link: its id derived from the link's (so the same seed gives the same consents,
 * without shifting the tenant's id sequence); `AWAITING_AUTHORISATION` while the registration waits
 * for the user's token (LINK-MFA-428), `AUTHORISED` once the link is valid; dated on the tenant's clock.
 */
export function consentOf(tenant: TenantRuntime, link: StoredRecord): StoredRecord {
  const createdAt = nowIso(tenant);
  return {
    id: createIds(createRandom(`${link.id}/consent`)).uuid(),
    link: link.id,
    institution: String(link.institution),
    status: link.status === 'unconfirmed' ? 'AWAITING_AUTHORISATION' : 'AUTHORISED',
    permissions: permissionsFor((link.fetch_resources as string[] | undefined) ?? []),
    created_at: createdAt,
    expiration_date: expirationOf(createdAt),
  };
}

/** Stores the consent of a link registered (or confirmed) at a Brazilian bank; nothing for the others. */
export async function recordConsent(tenant: TenantRuntime, link: StoredRecord): Promise<void> {
  if (!givesConsents(institutionByName(String(link.institution)))) return;
  const consent = consentOf(tenant, link);
  const earlier = await tenant.store.get(CONSENTS, consent.id);
  // A confirmed registration authorises the consent it asked for: its creation date stays.
  const kept = earlier
    ? { ...consent, created_at: earlier.created_at, expiration_date: earlier.expiration_date }
    : consent;
  await tenant.store.put(CONSENTS, kept);
}
