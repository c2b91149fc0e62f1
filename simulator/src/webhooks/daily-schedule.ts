/**
 * WEBHOOK-DAILY: the daily refresh as a job on the tenant's clock at the configured `daily_refresh_time`
 * (UTC); each run schedules the next day's. Advancing the clock over several days runs each day's in
 * order. A new configuration re-schedules it; a clock reset (which forgets jobs) schedules it again.
 */
import type { LinkData } from '../handlers/data-resources/link-data.js';
import { TenantClock, type TenantRuntime } from '../tenants/tenant-runtime.js';
import { runDailyRefresh } from './daily-refresh.js';
import { dailyOffsetMs, readWebhookConfig } from './webhook-config.js';
import { webhookState } from './webhook-state.js';

export const DAY_MS = 86_400_000;

/** The first instant after `after` at `HH:MM` UTC. */
export function nextDailyInstant(after: number, time: string): number {
  const candidate = Math.floor(after / DAY_MS) * DAY_MS + dailyOffsetMs(time);
  return candidate > after ? candidate : candidate + DAY_MS;
}

/** Midnight (UTC) starting the day after `instant`. */
export const nextDayStart = (instant: number) => (Math.floor(instant / DAY_MS) + 1) * DAY_MS;

function scheduleRun(linkData: LinkData, tenant: TenantRuntime, generation: number, at: number): void {
  tenant.clock.schedule(
    at,
    async () => {
      // Superseded by a newer schedule (a new configuration, a reset).
      const daily = webhookState(tenant).daily;
      if (daily.generation !== generation) return;
      daily.time = (await readWebhookConfig(tenant)).daily_refresh_time;
      // Tomorrow's first, so that a failing refresh does not end the series.
      if (daily.generation === generation)
        scheduleRun(linkData, tenant, generation, nextDailyInstant(at, daily.time));
      await runDailyRefresh(linkData, tenant);
    },
    'daily refresh',
  );
}

/**
 * Makes sure the tenant's daily refresh is scheduled; `reschedule` replaces the pending one (after a
 * configuration change). Called by the link triggers and the webhook control handlers.
 */
export async function ensureDailyRefresh(
  linkData: LinkData,
  tenant: TenantRuntime,
  reschedule = false,
): Promise<void> {
  const daily = webhookState(tenant).daily;
  if (!daily.listening && tenant.clock instanceof TenantClock) {
    daily.listening = true;
    // A reset (or a snapshot import) forgot the job: schedule it again from the clock's new time.
    tenant.clock.onReset((from) => {
      if (!daily.scheduled) return;
      daily.generation += 1;
      scheduleRun(linkData, tenant, daily.generation, nextDailyInstant(from, daily.time));
    });
  }
  if (daily.scheduled && !reschedule) return;
  daily.scheduled = true;
  daily.generation += 1;
  const generation = daily.generation;
  const { daily_refresh_time } = await readWebhookConfig(tenant);
  if (daily.generation !== generation) return;
  daily.time = daily_refresh_time;
  scheduleRun(linkData, tenant, generation, nextDailyInstant(tenant.clock.now(), daily_refresh_time));
}
