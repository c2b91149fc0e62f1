/**
 * Which of a link's resources have events, and where their records are kept for the link's
 * institution (Mexican and Chilean fiscal data live in different collections).
 */

import { ACCOUNTS, INVOICES, OWNERS, TAX_RETURNS, TRANSACTIONS } from '../../core/collections.js';
import type { LinkData, RetrievalScope } from '../../core/link-data.js';
import type { StoredRecord } from '../../store/store.js';
import { institutionByName } from '../institutions/catalogue.js';

export interface EventResource {
  /** The `fetch_resources` name (`TRANSACTIONS`...). */
  resource: string;
  /** The collection path (`/api/transactions/`...). */
  path: string;
}

/** WEBHOOK-HISTORICAL: banking, then fiscal; the order the events go out. */
export const HISTORICAL_RESOURCES = [
  'ACCOUNTS',
  'OWNERS',
  'TRANSACTIONS',
  'INVOICES',
  'TAX_RETURNS',
  'TAX_STATUS',
] as const;
/** WEBHOOK-DAILY: the resources whose new records have a `new_*_available` event. */
export const NEW_RECORD_RESOURCES = [
  'ACCOUNTS',
  'OWNERS',
  'TRANSACTIONS',
  'INVOICES',
  'TAX_RETURNS',
] as const;

function pathOf(resource: string, chilean: boolean): string | undefined {
  switch (resource) {
    case 'ACCOUNTS':
      return ACCOUNTS;
    case 'OWNERS':
      return OWNERS;
    case 'TRANSACTIONS':
      return TRANSACTIONS;
    case 'INVOICES':
      return chilean ? '/api/cl/invoices/' : INVOICES;
    case 'TAX_RETURNS':
      return chilean ? undefined : TAX_RETURNS;
    case 'TAX_STATUS':
      return chilean ? '/api/cl/tax-status/' : '/api/tax-status/';
    default:
      return undefined;
  }
}

/**
 * The resources of `order` that are `wanted`, that the link's institution offers and that the data
 * layer serves, with their collection paths.
 */
export function eventResources(
  linkData: LinkData,
  link: StoredRecord,
  wanted: readonly string[],
  order: readonly string[],
): EventResource[] {
  const institution = institutionByName(String(link.institution));
  if (!institution) return [];
  const chilean = institution.country_codes.includes('CL');
  const found: EventResource[] = [];
  for (const resource of order) {
    const path = pathOf(resource, chilean);
    if (path === undefined || !wanted.includes(resource) || !institution.resources.includes(resource))
      continue;
    if (linkData.collections.includes(path)) found.push({ resource, path });
  }
  return found;
}

/** The resources a link loads historically: its `fetch_resources`, or all its institution offers. */
export function linkResources(link: StoredRecord): string[] {
  if (Array.isArray(link.fetch_resources)) return link.fetch_resources.map(String);
  return institutionByName(String(link.institution))?.resources ?? [];
}

/** Invoices and tax returns load the last 5 years (Limits: historical load); the rest all there is. */
export function historicalScope(resource: string, now: number): RetrievalScope | undefined {
  if (resource !== 'INVOICES' && resource !== 'TAX_RETURNS') return undefined;
  const to = new Date(now);
  const from = new Date(now);
  from.setUTCFullYear(from.getUTCFullYear() - 5);
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}
