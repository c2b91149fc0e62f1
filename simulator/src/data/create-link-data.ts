/**
 * The data an institution holds for a link, as the rest of the simulator reaches it: retrievals
 * (DATA-RETRIEVE), the webhook triggers (historical updates, daily refresh) and the cascades.
 * Implemented by `createLinkData` on `RetrievalMachine`; the contract is core/link-data.ts.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import type { LinkData } from '../core/link-data.js';
import { withSentValues } from '../core/sent-values.js';
import { historyTemplate } from './exchange-history.js';
import { describeResources } from './resource-catalogue.js';
import { RetrievalMachine, todayOf } from './retrieval-machine.js';
import { scopedRetrieval } from './retrieval-request.js';

export type { LinkData, RetrievalScope } from '../core/link-data.js';

/** The link data of the data resources, with the machine their handlers share. */
export interface MachineLinkData extends LinkData {
  readonly machine: RetrievalMachine;
}

/**
 * The link data of every data resource of the document. `fetch` skips what the pipeline checks for a
 * POST (MFA, RANGE-365) and returns nothing for a resource the link's institution does not offer
 * (choice); without a scope it reads the resource's default range (`x-default-range-days`, else
 * `x-max-range-days`, else 365 days; five years for resources dated by year).
 */
export function createLinkData(api: ApiDocument): MachineLinkData {
  // The generator draws what the simulator sends: the document with its stricter overlay.
  const document = withSentValues(api.raw);
  const resources = describeResources(api, document);
  const withHistory = [...resources.values()].find((resource) => resource.operations.history !== undefined);
  const history = withHistory ? historyTemplate(document, `${withHistory.path}{id}/history/`) : null;
  const machine = new RetrievalMachine(resources, history);
  return {
    machine,
    collections: [...resources.keys()],
    async fetch(tenant, link, path, scope = {}) {
      const resource = machine.resource(path);
      if (machine.refusal(link, resource) !== null) return [];
      return machine.retrieve(tenant, link, resource, scopedRetrieval(resource, scope, todayOf(tenant)));
    },
    addNew: (tenant, link, path, count) => machine.addNew(tenant, link, machine.resource(path), count),
  };
}
