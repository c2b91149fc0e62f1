/**
 * What makes a recurrent link's events after its creation: the daily refresh, run through the control
 * API or reached by moving the clock to the configured hour (WEBHOOK-DAILY), optionally with a scenario
 * switch that makes it fail (LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED); or its asynchronous
 * deletion, which ends with `link_deleted` (LINK-DELETE-ASYNC's event).
 */
import fc from 'fast-check';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';
import {
  addLinkScenario,
  advanceClock,
  readClock,
  runDailyRefresh,
  secondsUntilDailyTime,
} from './webhook-control.js';
import type { WebhookSession } from './webhook-session.js';

/** How the daily refresh is reached: `POST /_ofkit/daily-refresh/`, or the clock at the configured time. */
export type RefreshVia = 'control' | 'clock';
export const refreshVia = (): fc.Arbitrary<RefreshVia> => fc.constantFrom<RefreshVia>('control', 'clock');

export type Scenario = 'next_refresh_invalid_credentials' | 'next_refresh_token_required';

/** What follows the registration. */
export type Trigger = 'nothing' | 'daily-refresh' | Scenario | 'async-delete';
export const triggers = (): fc.Arbitrary<Trigger> =>
  fc.constantFrom<Trigger>(
    'nothing',
    'daily-refresh',
    'next_refresh_invalid_credentials',
    'next_refresh_token_required',
    'async-delete',
  );

/** How far the clock moves after an asynchronous deletion (the links area's choice: done within 300 s). */
export const DELETION_SECONDS = 300;

/** DELETE with `X-Service-Request-Mode: async` (202), then the clock past the deletion. */
export async function deleteAsync(hooks: WebhookSession, link: string): Promise<void> {
  const url = `/api/links/${link}/`;
  const headers = { 'x-service-request-mode': 'async' };
  const answer = await hooks.run.http.request({ method: 'DELETE', url, headers });
  if (answer.status !== 202) fail(`DELETE ${url} (async) answered ${describeAnswer(answer)}; wanted 202`);
  await advanceClock(hooks.run.http, DELETION_SECONDS);
}

/** Runs the tenant's daily refresh one way or the other. */
export async function dailyRefresh(hooks: WebhookSession, via: RefreshVia): Promise<void> {
  const { http } = hooks.run;
  if (via === 'control') return runDailyRefresh(http);
  const time = hooks.settings.dailyRefreshTime;
  await advanceClock(http, secondsUntilDailyTime((await readClock(http)).now, time));
}

/** The trigger, then a bounded wait for new deliveries of the link (the log settled). */
export async function pullTrigger(
  hooks: WebhookSession,
  link: string,
  trigger: Trigger,
  via: RefreshVia = 'control',
): Promise<void> {
  const before = hooks.deliveriesOf(link).length;
  if (trigger === 'nothing') return;
  if (trigger === 'async-delete') await deleteAsync(hooks, link);
  else {
    if (trigger !== 'daily-refresh') await addLinkScenario(hooks.run.http, trigger, link);
    await dailyRefresh(hooks, via);
  }
  await hooks.collect(link, (deliveries) => deliveries.length > before);
}
