/**
 * A historical update of a link (WEBHOOK-HISTORICAL): each resource is loaded from the institution
 * through the data layer, and its `historical_update` event follows with data computed from the
 * link's stored records, so the follow-up reads return exactly what the event counts
 * (WEBHOOK-FOLLOW-UP).
 */

import { LINKS } from '../../core/collections.js';
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
  for (const { resource, path } of eventResources(linkData, link, resources, HISTORICAL_RESOURCES)) {
    await linkData.fetch(tenant, link, path, historicalScope(resource, tenant.clock.now()));
    const stored = await tenant.store.list(path, { link: link.id });
    for (const event of historicalEvents[resource]?.(link.id, stored, requestId) ?? []) {
      tenant.emit(event);
      raised += 1;
    }
  }
  return raised;
}

/** The link as stored now (a job runs later than its trigger), or undefined when it is gone. */
export const currentLink = (tenant: TenantRuntime, id: string) => tenant.store.get(LINKS, id);

/** Puts `changes` on the link as stored now (a job or a refresh awaited other work since reading it). */
export async function updateStoredLink(tenant: TenantRuntime, id: string, changes: Record<string, unknown>) {
  const latest = await currentLink(tenant, id);
  if (latest) await tenant.store.put(LINKS, { ...latest, ...changes });
}
