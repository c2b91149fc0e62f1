/**
 * The daily refresh (WEBHOOK-DAILY): every valid recurrent link finds new records, deterministically
 * from the tenant's seed, and the `new_*_available` events follow; the institution changes an older
 * transaction (`transactions_updated`), drops a duplicate (`transactions_deleted`) and cancels an
 * invoice (`invoices_cancelled`, INVOICE-CANCELLED). Single links get only the transaction changes
 * (WEBHOOK-RECURRENT-ONLY). The scenario switches make it find invalid credentials or need a token
 * (LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED).
 */
import { takeScenario } from '../../core/armed-switches.js';
import { LINKS, TRANSACTIONS } from '../../core/collections.js';
import type { LinkData } from '../../core/link-data.js';
import type { TenantRuntime } from '../../core/tenant.js';
import type { StoredRecord } from '../../store/store.js';
import { webhookState } from '../../webhooks/webhook-state.js';
import { newRecordsEvents } from './event-data.js';
import { eventResources, linkResources, NEW_RECORD_RESOURCES } from './event-resources.js';
import { updateStoredLink } from './historical-update.js';
import { applyInstitutionChanges } from './institution-changes.js';
import { failLogin } from './login-failures.js';

/** How many new records one daily refresh finds per link (choice: every event shows on every refresh). */
function newRecordCount(tenant: TenantRuntime, resource: string): number {
  if (resource === 'TRANSACTIONS') return tenant.random.int(1, 5);
  if (resource === 'INVOICES') return tenant.random.int(2, 4);
  return 1;
}

/** LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED: true when a scenario switch stopped the refresh. */
async function failedLogin(tenant: TenantRuntime, link: StoredRecord): Promise<boolean> {
  const target = { institution: String(link.institution), link: link.id };
  if (await takeScenario(tenant, 'next_refresh_invalid_credentials', target)) {
    await failLogin(tenant, link, 'invalid');
    return true;
  }
  if (!(await takeScenario(tenant, 'next_refresh_token_required', target))) return false;
  await failLogin(tenant, link, 'token_required');
  return true;
}

/**
 * The records of each resource that are new since `before` (the data layer may add some to serve
 * others: an account for new transactions); transactions count the whole history on the link's first
 * refresh, as the catalogue says.
 */
async function newRecords(
  tenant: TenantRuntime,
  link: StoredRecord,
  path: string,
  before: StoredRecord[],
  all: boolean,
) {
  const after = await tenant.store.list(path, { link: link.id });
  // Store contract: a link's records come in insertion order and a new id goes to the end, and nothing
  // is deleted during the refresh: what follows the earlier records is what was added.
  return all || !tenant.policy.links.dailyCountsNewOnly ? after : after.slice(before.length);
}

/** One recurrent link's refresh: new records and their events, then the institution's changes. */
async function refreshRecurrentLink(linkData: LinkData, tenant: TenantRuntime, link: StoredRecord) {
  if (await failedLogin(tenant, link)) return;
  const resources = eventResources(linkData, link, linkResources(link), NEW_RECORD_RESOURCES);
  const before = new Map<string, StoredRecord[]>();
  for (const { path } of resources) before.set(path, await tenant.store.list(path, { link: link.id }));
  for (const { resource, path } of resources) {
    await linkData.addNew(tenant, link, path, newRecordCount(tenant, resource));
  }
  const first = link._dailyRefreshedAt === undefined;
  for (const { resource, path } of resources) {
    const added = await newRecords(
      tenant,
      link,
      path,
      before.get(path) ?? [],
      first && resource === 'TRANSACTIONS',
    );
    for (const event of newRecordsEvents[resource]?.(link.id, added) ?? []) tenant.emit(event);
  }
  await applyInstitutionChanges(tenant, link, before);
  await updateStoredLink(tenant, link.id, { _dailyRefreshedAt: tenant.clock.now() });
}

/**
 * The links the day's job `run` refreshed, each noted once done, so that the job run again (its replica
 * died) skips them: a replica killed in the middle of one link's refresh leaves that one link to be
 * refreshed again. Notes of earlier days go when a day's job starts.
 */
const DONE_NOTES = '_daily_refresh_done';

async function linksDoneBy(tenant: TenantRuntime, run: string | undefined): Promise<Set<string>> {
  const done = new Set<string>();
  if (run === undefined) return done;
  for (const note of await tenant.store.list(DONE_NOTES)) {
    if (note.link === run) done.add(String(note.done));
    else await tenant.store.delete(DONE_NOTES, note.id);
  }
  return done;
}

const noteDone = (tenant: TenantRuntime, run: string | undefined, link: string) =>
  run === undefined
    ? undefined
    : tenant.store.put(DONE_NOTES, { id: `${run}|${link}`, link: run, done: link });

/**
 * Runs the daily refresh of the tenant's links now (the scheduled job and `POST /_ofkit/daily-refresh/`);
 * returns how many recurrent links it refreshed. Links that are not `valid` cannot log in and are skipped.
 * `run`: the day's job (see DONE_NOTES).
 */
export function runDailyRefresh(linkData: LinkData, tenant: TenantRuntime, run?: string): Promise<number> {
  // One refresh of a tenant at a time in this process: the day's job (on the ticker) and a refresh asked
  // through the control API would otherwise read "before" and "after" around each other's writes and
  // count each other's new records (WEBHOOK-DAILY's counts).
  const state = webhookState(tenant);
  const refresh = state.refreshTurn.then(() => refreshAll(linkData, tenant, run));
  state.refreshTurn = refresh.catch(() => undefined);
  return refresh;
}

async function refreshAll(
  linkData: LinkData,
  tenant: TenantRuntime,
  run: string | undefined,
): Promise<number> {
  let refreshed = 0;
  const done = await linksDoneBy(tenant, run);
  for (const link of await tenant.store.list(LINKS)) {
    if (link.status !== 'valid') continue;
    const recurrent = link.access_mode === 'recurrent' || tenant.policy.links.dailyRefreshSingleLinks;
    if (recurrent) refreshed += 1;
    if (done.has(link.id)) continue;
    // WEBHOOK-RECURRENT-ONLY: only recurrent links are refreshed (and notified).
    if (recurrent) {
      await refreshRecurrentLink(linkData, tenant, link);
    } else {
      // WEBHOOK-RECURRENT-ONLY: a single link's stored transactions still change at the institution.
      const path = TRANSACTIONS;
      const stored = await tenant.store.list(path, { link: link.id });
      await applyInstitutionChanges(tenant, link, new Map([[path, stored]]));
    }
    await noteDone(tenant, run, link.id);
  }
  return refreshed;
}
