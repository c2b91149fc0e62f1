/**
 * The data an institution holds for a link, as the rest of the simulator reaches it: retrievals
 * (DATA-RETRIEVE), the webhook triggers (historical updates, daily refresh) and the cascades.
 * Implemented by `createLinkData` on `RetrievalMachine`; the signatures here are the contract.
 */
import type { JsonObject } from '../../../../openapi/validation/document-ajv.js';
import type { StoredRecord } from '../../store/store.js';
import type { TenantRuntime } from '../../tenants/tenant-runtime.js';
import { historyTemplate } from './exchange-history.js';
import { describeResources } from './resource-catalogue.js';
import { RetrievalMachine, todayOf } from './retrieval-machine.js';
import { type RetrievalScope, scopedRetrieval } from './retrieval-request.js';

/** What a retrieval asks for: one account's records, a date range (inclusive `YYYY-MM-DD`). */
export type { RetrievalScope } from './retrieval-request.js';

export interface LinkData {
  /** Collection paths of the data resources (`/api/accounts/`, `/api/mx/invoices/`...). */
  readonly collections: readonly string[];
  /**
   * DATA-RETRIEVE: the link's records of one resource within the scope, generated deterministically
   * (same seed, same link, same records), stored, and returned.
   */
  fetch(
    tenant: TenantRuntime,
    link: StoredRecord,
    path: string,
    scope?: RetrievalScope,
  ): Promise<StoredRecord[]>;
  /** Daily refresh: `count` new records of the resource dated on the tenant's current day, stored and returned. */
  addNew(tenant: TenantRuntime, link: StoredRecord, path: string, count: number): Promise<StoredRecord[]>;
}

const machines = new WeakMap<LinkData, RetrievalMachine>();

/** The machine behind a `LinkData` made by `createLinkData` (the data resource handlers share it). */
export function retrievalMachineOf(linkData: LinkData): RetrievalMachine {
  const machine = machines.get(linkData);
  if (machine === undefined) throw new Error('This LinkData was not made by createLinkData');
  return machine;
}

/**
 * The link data of every data resource of the document. `fetch` skips what the pipeline checks for a
 * POST (MFA, RANGE-365) and returns nothing for a resource the link's institution does not offer
 * (choice); without a scope it reads the resource's default range (`x-default-range-days`, else
 * `x-max-range-days`, else 365 days; five years for resources dated by year).
 */
export function createLinkData(document: JsonObject): LinkData {
  const resources = describeResources(document);
  const withHistory = [...resources.values()].find((resource) => resource.operations.history !== undefined);
  const history = withHistory ? historyTemplate(document, `${withHistory.path}{id}/history/`) : null;
  const machine = new RetrievalMachine(resources, history);
  const linkData: LinkData = {
    collections: [...resources.keys()],
    async fetch(tenant, link, path, scope = {}) {
      const resource = machine.resource(path);
      if (machine.refusal(link, resource) !== null) return [];
      return machine.retrieve(tenant, link, resource, scopedRetrieval(resource, scope, todayOf(tenant)));
    },
    addNew: (tenant, link, path, count) => machine.addNew(tenant, link, machine.resource(path), count),
  };
  machines.set(linkData, machine);
  return linkData;
}
