/**
 * A historical update of a link (WEBHOOK-HISTORICAL): each resource is loaded from the institution
 * through the data layer, and its `historical_update` event follows with data computed from the
 * link's stored records, so the follow-up reads return exactly what the event counts
 * (WEBHOOK-FOLLOW-UP).
 */

import { LINKS } from '../../core/collections.js';
import type { RaisedEvent } from '../../core/events.js';
import type { LinkData } from '../../core/link-data.js';
import type { TenantRuntime } from '../../core/tenant.js';
import type { StoredRecord } from '../../store/store.js';
import { historicalEvents } from './event-data.js';
import { eventResources, HISTORICAL_RESOURCES, historicalScope } from './event-resources.js';

/**
 * Loads `resources` of the link and raises their `historical_update` events; `requestId` is the
 * refresh's that caused it (LINK-REFRESH-202). Returns how many events were raised.
 */
export async function runHistoricalUpdate(
  linkData: LinkData,
  tenant: TenantRuntime,
  link: StoredRecord,
  resources: readonly string[],
  requestId?: string,
): Promise<number> {
  let raised = 0;
  // brokenRules WEBHOOK-HISTORICAL: owners left out of the banking historical update.
  const dropOwners = tenant.brokenRules.has('WEBHOOK-HISTORICAL');
  for (const { resource, path } of eventResources(linkData, link, resources, HISTORICAL_RESOURCES)) {
    if (dropOwners && resource === 'OWNERS') continue;
    await linkData.fetch(tenant, link, path, historicalScope(resource, tenant.clock.now()));
    const stored = await tenant.store.list(path, { link: link.id });
    for (const event of historicalEvents[resource]?.(link.id, stored, requestId) ?? []) {
      tenant.emit(followUpBroken(tenant, event));
      raised += 1;
    }
  }
  return raised;
}

/** brokenRules WEBHOOK-FOLLOW-UP: the last transaction date stated as the day of the load. */
function followUpBroken(tenant: TenantRuntime, event: RaisedEvent): RaisedEvent {
  if (!tenant.brokenRules.has('WEBHOOK-FOLLOW-UP') || !('last_transaction_date' in event.data)) return event;
  const today = new Date(tenant.clock.now() + 86_400_000).toISOString().slice(0, 10);
  return { ...event, data: { ...event.data, last_transaction_date: today } };
}

/** The link as stored now (a job runs later than its trigger), or undefined when it is gone. */
export const currentLink = (tenant: TenantRuntime, id: string) => tenant.store.get(LINKS, id);
