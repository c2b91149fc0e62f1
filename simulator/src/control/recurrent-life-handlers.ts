/**
 * The control operations of a recurrent link's weeks (`/_ofkit/recurrent-lives/`, admin.yaml tag
 * `Situations`): start the clock script of a link, list the scripts with each step's outcome.
 */
import { apiError } from '../core/api-error.js';
import { LINKS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { JobKinds } from '../core/job-kinds.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok } from '../core/result.js';
import { ensureDailyRefresh } from '../links/events/daily-schedule.js';
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

const listLives: Handler = async ({ tenant }) => ok(json(200, await listRecurrentLives(tenant)));

export function recurrentLifeHandlers(linkData: LinkData, jobs: JobKinds): [string, Handler][] {
  defineRecurrentLife(jobs, linkData);
  return [
    ['startRecurrentLife', startLife],
    ['listRecurrentLives', listLives],
  ];
}
