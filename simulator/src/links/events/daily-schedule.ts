/**
 * WEBHOOK-DAILY: the daily refresh as a job on the tenant's clock at the configured `daily_refresh_time`
 * (UTC); each run schedules the next day's. Advancing the clock over several days runs each day's in
 * order. A new configuration re-schedules it; a clock reset (which forgets jobs) schedules it again.
 * The schedule's state (its generation, the time last read) is in the tenant's store, so that whichever
 * replica runs a day's job knows whether a newer schedule superseded it.
 */

import { RUNTIME_COLLECTION } from '../../clock/tenant-clock.js';
import type { JobKinds } from '../../core/job-kinds.js';
import type { LinkData } from '../../core/link-data.js';
import type { TenantRuntime } from '../../core/tenant.js';
import { DAY_MS } from '../../core/time.js';
import { dailyOffsetMs, readWebhookConfig } from '../../webhooks/webhook-config.js';
import { webhookState } from '../../webhooks/webhook-state.js';
import { runDailyRefresh } from './daily-refresh.js';

/** The job kind of a day's refresh: `{ generation }`. */
export const DAILY_REFRESH = 'daily refresh';

/** The first instant after `after` at `HH:MM` UTC. */
export function nextDailyInstant(after: number, time: string): number {
  const candidate = Math.floor(after / DAY_MS) * DAY_MS + dailyOffsetMs(time);
  return candidate > after ? candidate : candidate + DAY_MS;
}

/** Midnight (UTC) starting the day after `instant`. */
export const nextDayStart = (instant: number) => (Math.floor(instant / DAY_MS) + 1) * DAY_MS;

/** A job whose generation is not the current one was superseded and does nothing. */
interface DailySchedule {
  generation: number;
  scheduled: boolean;
  /** The `daily_refresh_time` last read. */
  time: string;
}

const DAILY_ID = 'daily-refresh';

async function readSchedule(tenant: TenantRuntime): Promise<DailySchedule> {
  const stored = await tenant.store.get(RUNTIME_COLLECTION, DAILY_ID);
  return stored
    ? {
        generation: Number(stored.generation),
        scheduled: stored.scheduled === true,
        time: String(stored.time),
      }
    : { generation: 0, scheduled: false, time: '06:00' };
}

const writeSchedule = (tenant: TenantRuntime, schedule: DailySchedule) =>
  tenant.store.put(RUNTIME_COLLECTION, { id: DAILY_ID, ...schedule });

/** One job per day and generation, however often it is scheduled (a day's job that runs again). */
const scheduleRun = (tenant: TenantRuntime, generation: number, at: number) =>
  tenant.clock.schedule(at, DAILY_REFRESH, { generation }, undefined, `daily-refresh:${generation}:${at}`);

/** Defines the daily refresh's job kind: run the day's refresh, having scheduled tomorrow's first. */
export function defineDailyRefresh(jobs: JobKinds, linkData: LinkData): void {
  jobs.define(DAILY_REFRESH, async (tenant, args, job) => {
    const generation = Number(args.generation);
    const schedule = await readSchedule(tenant);
    // Superseded by a newer schedule (a new configuration, a reset).
    if (schedule.generation !== generation) return;
    const time = (await readWebhookConfig(tenant)).daily_refresh_time;
    await writeSchedule(tenant, { ...schedule, time });
    // Tomorrow's first, so that a failing refresh does not end the series.
    await scheduleRun(tenant, generation, nextDailyInstant(tenant.clock.now(), time));
    // A day's job that runs again (its replica died) skips the links it refreshed already.
    await runDailyRefresh(linkData, tenant, job.id);
  });
}

/**
 * Makes sure the tenant's daily refresh is scheduled; `reschedule` replaces the pending one (after a
 * configuration change). Called by the link triggers and the webhook control handlers.
 */
export async function ensureDailyRefresh(tenant: TenantRuntime, reschedule = false): Promise<void> {
  const local = webhookState(tenant).daily;
  if (!local.listening) {
    local.listening = true;
    // A reset (or a snapshot import) forgot the job: schedule it again from the clock's new time.
    tenant.clock.onReset(async (from) => {
      const schedule = await readSchedule(tenant);
      if (!schedule.scheduled) return;
      const generation = schedule.generation + 1;
      await writeSchedule(tenant, { ...schedule, generation });
      await scheduleRun(tenant, generation, nextDailyInstant(from, schedule.time));
    });
  }
  const schedule = await readSchedule(tenant);
  if (schedule.scheduled && !reschedule) return;
  const { daily_refresh_time } = await readWebhookConfig(tenant);
  const generation = schedule.generation + 1;
  await writeSchedule(tenant, { generation, scheduled: true, time: daily_refresh_time });
  await scheduleRun(tenant, generation, nextDailyInstant(tenant.clock.now(), daily_refresh_time));
}

/**
 * After the clock is set back (PUT /_ofkit/clock/ to an earlier instant): the pending day's refresh is
 * days ahead of the new instant, and every day in between would pass without one. The next refresh is
 * the next `daily_refresh_time` after the new instant; the job pending before is superseded (it runs
 * and does nothing). A tenant whose daily refresh was never scheduled is left alone.
 */
export async function rescheduleAfterMoveBack(tenant: TenantRuntime): Promise<void> {
  if ((await readSchedule(tenant)).scheduled) await ensureDailyRefresh(tenant, true);
}
