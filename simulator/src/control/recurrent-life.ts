/**
 * A recurrent link's weeks on the virtual clock: a clock script that plays N days of the link's life,
 * which no client test can wait for in real time. The daily refresh (WEBHOOK-DAILY) brings each day's
 * new, changed and deleted transactions; the script adds, as jobs on the tenant's clock (data: any
 * replica runs them): a historical update the first day, credentials turning invalid at the refresh of
 * day ⌈N/3⌉ (LINK-INVALID-CREDENTIALS) and a token required at the refresh of day ⌈2N/3⌉
 * (LINK-TOKEN-REQUIRED), both the way the real service finds them (the refresh fails and the LINK event
 * follows), and the link deleted on the last day (LINK-DELETE-ASYNC's `link_deleted`). The script is kept
 * in the tenant's store with each step's outcome, so a driver (`ofkit golive`, a test) sees when it ends.
 */
import { arm } from '../core/armed-switches.js';
import { LINKS } from '../core/collections.js';
import type { JobKinds } from '../core/job-kinds.js';
import type { LinkData } from '../core/link-data.js';
import type { TenantRuntime } from '../core/tenant.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../core/time.js';
import { nextDailyInstant } from '../links/events/daily-schedule.js';
import { ASYNC_LINK_DELETION } from '../links/link-deletion.js';
import type { StoredRecord } from '../store/store.js';
import { readWebhookConfig } from '../webhooks/webhook-config.js';
import { FIRINGS } from './link-event-firings.js';

/** The job kind of one step: `{ link, step }`, the step's index in the link's script. */
export const RECURRENT_LIFE_STEP = 'recurrent life step';
export const RECURRENT_LIVES = '_ofkit/recurrent-lives';

export type LifeAction = 'historical_update' | 'credentials_invalid' | 'token_required' | 'link_deleted';

export interface LifeStep {
  day: number;
  at: string;
  action: LifeAction;
  /** `skipped`: the link was gone, or not `valid` for a step that needs its institution. */
  outcome: 'pending' | 'done' | 'skipped';
}

export interface RecurrentLife {
  link: string;
  days: number;
  started_at: string;
  ends_at: string;
  finished: boolean;
  steps: LifeStep[];
}

const iso = (at: number) => new Date(at).toISOString();

/** The steps of `days` days from `now`, around each day's refresh at `refreshTime` (HH:MM UTC). */
export function lifeSteps(now: number, days: number, refreshTime: string): LifeStep[] {
  const refreshOf = (day: number) => nextDailyInstant(now, refreshTime) + (day - 1) * DAY_MS;
  const invalidDay = Math.max(2, Math.ceil(days / 3));
  const tokenDay = Math.max(invalidDay + 1, Math.ceil((2 * days) / 3));
  // The scenarios are armed a minute before the day's refresh, which finds them.
  const plan: [number, number, LifeAction][] = [
    [1, refreshOf(1) + HOUR_MS, 'historical_update'],
    [invalidDay, refreshOf(invalidDay) - MINUTE_MS, 'credentials_invalid'],
    [tokenDay, refreshOf(tokenDay) - MINUTE_MS, 'token_required'],
    [days, refreshOf(days) + HOUR_MS, 'link_deleted'],
  ];
  return plan.map(([day, at, action]) => ({ day, at: iso(at), action, outcome: 'pending' }));
}

/** Starts the script of `link` (valid, recurrent: the caller checked), its steps scheduled. */
export async function startRecurrentLife(
  tenant: TenantRuntime,
  link: string,
  days: number,
): Promise<RecurrentLife> {
  const now = tenant.clock.now();
  const steps = lifeSteps(now, days, (await readWebhookConfig(tenant)).daily_refresh_time);
  const life: RecurrentLife = {
    link,
    days,
    started_at: iso(now),
    ends_at: steps[steps.length - 1]?.at ?? iso(now),
    finished: false,
    steps,
  };
  await tenant.store.put(RECURRENT_LIVES, { id: link, ...life } as unknown as StoredRecord);
  for (const [index, step] of steps.entries())
    await tenant.clock.schedule(
      Date.parse(step.at),
      RECURRENT_LIFE_STEP,
      { link, step: index },
      link,
      `recurrent-life:${link}:${index}`,
    );
  return life;
}

const toLife = ({ id: _id, ...life }: StoredRecord) => life as unknown as RecurrentLife;

export async function listRecurrentLives(tenant: TenantRuntime): Promise<RecurrentLife[]> {
  return (await tenant.store.list(RECURRENT_LIVES)).map(toLife);
}

/** Does one step to the link; false when it could not (the link gone, or not valid where that matters). */
async function act(tenant: TenantRuntime, linkData: LinkData, link: StoredRecord, action: LifeAction) {
  // Deleted as LINK-DELETE-ASYNC deletes, by its job at this instant (a job cannot run the clock itself).
  if (action === 'link_deleted') {
    const args = { link: link.id, requestId: tenant.ids.hex(32) };
    await tenant.clock.schedule(tenant.clock.now(), ASYNC_LINK_DELETION, args);
    return true;
  }
  if (link.status !== 'valid') return false;
  if (action === 'historical_update') {
    const requestId = tenant.ids.hex(32);
    await FIRINGS.transactions_historical_update?.({ tenant, link, linkData, count: 1, requestId });
    return true;
  }
  const scenario =
    action === 'credentials_invalid' ? 'next_refresh_invalid_credentials' : 'next_refresh_token_required';
  const id = `recurrent-life-${link.id}-${action}`;
  await arm(tenant, 'scenarios', { id, scenario, institution: null, link: link.id, remaining: 1 });
  return true;
}

/** Defines the step's job kind: the step done once (a job may run again), its outcome recorded. */
export function defineRecurrentLife(jobs: JobKinds, linkData: LinkData): void {
  jobs.define(RECURRENT_LIFE_STEP, async (tenant, args) => {
    const stored = await tenant.store.get(RECURRENT_LIVES, String(args.link));
    if (!stored) return;
    const life = toLife(stored);
    const step = life.steps[Number(args.step)];
    if (step?.outcome !== 'pending') return;
    const link = await tenant.store.get(LINKS, life.link);
    const done = link !== undefined && (await act(tenant, linkData, link, step.action));
    step.outcome = done ? 'done' : 'skipped';
    life.finished = life.steps.every((s) => s.outcome !== 'pending');
    await tenant.store.put(RECURRENT_LIVES, { id: life.link, ...life } as unknown as StoredRecord);
  });
}
