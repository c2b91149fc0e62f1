/**
 * The control operations of a recurrent link's weeks (`/_ofkit/recurrent-lives/`, admin.yaml tag
 * `Situations`): start the clock script of a link, list the scripts with each step's outcome; and the
 * script given on registration to every recurrent link (`ofkit simulate --recurrent-life DAYS`).
 */
import { apiError } from '../core/api-error.js';
import { LINKS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { JobKinds } from '../core/job-kinds.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { ensureDailyRefresh } from '../links/events/daily-schedule.js';
import type { StoredRecord } from '../store/store.js';
import { defineRecurrentLife, listRecurrentLives, startRecurrentLife } from './recurrent-life.js';

const startLife: Handler = async ({ input, tenant }) => {
  const { link: id, days = 28 } = input.body as { link: string; days?: number };
  const link = await tenant.store.get(LINKS, id);
  if (!link) return err(apiError('not_found', { field: 'link', message: `No link ${id} in ${LINKS}.` }));
  if (link.access_mode !== 'recurrent' || link.status !== 'valid') {
    const message = `Link ${id} is ${String(link.access_mode)} and ${String(link.status)}: the script plays a valid recurrent link's life.`;
    return err(apiError('invalid', { field: 'link', message }));
  }
  // The days' refreshes are the daily refresh's (WEBHOOK-DAILY): scheduled if nothing asked for it yet.
  await ensureDailyRefresh(tenant);
  return ok(json(201, await startRecurrentLife(tenant, id, days)));
};

/**
 * `--recurrent-life DAYS`: each recurrent link registered `valid` (a 201, or a resumed 428) starts its
 * life script of `days` days at once, as `POST /_ofkit/recurrent-lives/` would start it.
 */
export function lifeOnRegistration(days: number) {
  return async (tenant: TenantRuntime, link: StoredRecord): Promise<void> => {
    if (link.access_mode !== 'recurrent' || link.status !== 'valid') return;
    await ensureDailyRefresh(tenant);
    await startRecurrentLife(tenant, link.id, days);
  };
}

const listLives: Handler = async ({ tenant }) => ok(json(200, await listRecurrentLives(tenant)));

export function recurrentLifeHandlers(linkData: LinkData, jobs: JobKinds): [string, Handler][] {
  defineRecurrentLife(jobs, linkData);
  return [
    ['startRecurrentLife', startLife],
    ['listRecurrentLives', listLives],
  ];
}
