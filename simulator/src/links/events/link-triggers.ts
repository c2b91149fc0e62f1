/**
 * The events the link operations cause, as functions the link handlers call once the operation's
 * effect is stored: WEBHOOK-HISTORICAL and WEBHOOK-SANDBOX (registration), LINK-REFRESH-202,
 * LINK-ACCESS-MODE-UP (and no events for LINK-ACCESS-MODE-DOWN, LINK-PATCH-NO-UPDATE),
 * LINK-PUT-CREDENTIALS, LINK-DELETE-ASYNC.
 */

import type { JobKinds } from '../../core/job-kinds.js';
import type { LinkData } from '../../core/link-data.js';
import type { TenantRuntime } from '../../core/tenant.js';
import type { StoredRecord } from '../../store/store.js';
import { readWebhookConfig } from '../../webhooks/webhook-config.js';
import { institutionByName } from '../institutions/catalogue.js';
import { ensureDailyRefresh, nextDayStart } from './daily-schedule.js';
import { linkResources } from './event-resources.js';
import { currentLink, runHistoricalUpdate } from './historical-update.js';

export interface LinkTriggers {
  /**
   * After a link is registered (201 of registerLink, 200 of resumeLinkRegistration): a recurrent link
   * loads its history and sends `historical_update` events (WEBHOOK-HISTORICAL); in sandbox mode every
   * new link does (WEBHOOK-SANDBOX).
   */
  linkCreated(tenant: TenantRuntime, link: StoredRecord): Promise<void>;
  /**
   * After a refresh is accepted (202 of refreshLink): `historical_update` events carrying its
   * `request_id`, for `fetchResources` (the body's) or every resource of the institution
   * (LINK-REFRESH-202). A link that is not `valid` cannot log in: no events.
   */
  linkRefreshed(
    tenant: TenantRuntime,
    link: StoredRecord,
    requestId: string,
    fetchResources?: readonly string[],
  ): Promise<void>;
  /**
   * After a PATCH is stored (updateLink): single -> recurrent schedules a historical update at the start
   * of the next day of the tenant's clock (LINK-ACCESS-MODE-UP); any other change sends nothing
   * (LINK-ACCESS-MODE-DOWN, LINK-PATCH-NO-UPDATE).
   */
  linkUpdated(tenant: TenantRuntime, before: StoredRecord, after: StoredRecord): Promise<void>;
  /**
   * After new credentials are stored (updateLinkCredentials): an `invalid` or `token_required` recurrent
   * link updates and sends `historical_update` events (LINK-PUT-CREDENTIALS).
   */
  credentialsUpdated(tenant: TenantRuntime, before: StoredRecord, after: StoredRecord): Promise<void>;
  /**
   * When an asynchronous deletion has deleted the link and its data: `link_deleted` (LINK-DELETE-ASYNC),
   * under the event id and deletion instant the deletion noted (a deletion job run again raises the
   * same event: logged and delivered once). Resolves once the event is logged.
   */
  linkDeleted(tenant: TenantRuntime, deletion: LinkDeletion): Promise<void>;
}

/** What an asynchronous deletion notes in the step that deletes the link (the event it owes). */
export interface LinkDeletion {
  link: string;
  requestId: string;
  /** The `link_deleted` event's id (its `webhook_id`). */
  event: string;
  deletedAt: number;
}

const BROKEN_STATUSES = new Set(['invalid', 'token_required']);

/**
 * The job kind of the next day's historical update (LINK-ACCESS-MODE-UP): `{ link, ifRecurrent }`;
 * `ifRecurrent` (an upgrade's) runs it only for a link still recurrent and valid the next day.
 */
const NEXT_DAY_UPDATE = 'historical update';

/**
 * WEBHOOK-HISTORICAL, WEBHOOK-SANDBOX: a new recurrent link (in sandbox mode, every new link) loads its
 * history and sends `historical_update` events; the tenant's daily refresh is scheduled.
 */
export async function historicalOnCreation(
  linkData: LinkData,
  tenant: TenantRuntime,
  link: StoredRecord,
): Promise<void> {
  await ensureDailyRefresh(tenant);
  const { environment } = await readWebhookConfig(tenant);
  if (link.access_mode !== 'recurrent' && environment !== 'sandbox') return;
  await runHistoricalUpdate(linkData, tenant, link, linkResources(link));
}

export function linkTriggers(linkData: LinkData, jobs: JobKinds): LinkTriggers {
  const historical = (tenant: TenantRuntime, link: StoredRecord, resources: readonly string[], id?: string) =>
    runHistoricalUpdate(linkData, tenant, link, resources, id).then(() => undefined);
  jobs.define(NEXT_DAY_UPDATE, async (tenant, args) => {
    // The link as it is the next day: deleted, back to single or broken means no update.
    const link = await currentLink(tenant, String(args.link));
    if (!link) return;
    const current = link.access_mode === 'recurrent' && link.status === 'valid';
    if (args.ifRecurrent !== false && !current) return;
    await historical(tenant, link, linkResources(link));
  });

  return {
    linkCreated: (tenant, link) => historicalOnCreation(linkData, tenant, link),

    async linkRefreshed(tenant, link, requestId, fetchResources) {
      if (link.status !== 'valid') return;
      const resources = fetchResources ?? institutionByName(String(link.institution))?.resources ?? [];
      await historical(tenant, link, resources, requestId);
    },

    async linkUpdated(tenant, before, after) {
      await ensureDailyRefresh(tenant);
      const updateAfter = tenant.policy.links.nextDayUpdateAfter;
      const wasRecurrent = before.access_mode === 'recurrent';
      const isRecurrent = after.access_mode === 'recurrent';
      // LINK-ACCESS-MODE-UP: an upgrade updates the next day; LINK-ACCESS-MODE-DOWN and
      // LINK-PATCH-NO-UPDATE: a downgrade or another change of a recurrent link does not.
      const upgrade = !wasRecurrent && isRecurrent && updateAfter.upgrade;
      const other = wasRecurrent && (isRecurrent ? updateAfter.recurrentPatch : updateAfter.downgrade);
      if (!upgrade && !other) return;
      await tenant.clock.schedule(nextDayStart(tenant.clock.now()), NEXT_DAY_UPDATE, {
        link: after.id,
        ifRecurrent: upgrade,
      });
    },

    async credentialsUpdated(tenant, before, after) {
      if (!BROKEN_STATUSES.has(String(before.status)) || after.access_mode !== 'recurrent') return;
      await historical(tenant, after, linkResources(after));
    },

    async linkDeleted(tenant, { link, requestId, event, deletedAt }) {
      await tenant.emit({
        webhook_type: 'LINK',
        webhook_code: 'link_deleted',
        link_id: link,
        data: { request_id: requestId, deleted_at: new Date(deletedAt).toISOString() },
        id: event,
      });
    },
  };
}
