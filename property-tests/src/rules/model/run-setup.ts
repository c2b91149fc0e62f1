/**
 * What each model run starts and ends with. With the control API the target's clock is frozen for the
 * run (the model then knows it exactly) and first moved on at least a minute, which empties the
 * DELETE-RATE-LIMIT windows that earlier rules and runs filled; it is moved further when a day boundary is
 * near, so that no daily refresh (WEBHOOK-DAILY) or next-day update (LINK-ACCESS-MODE-UP) changes records
 * behind the model's back. These requests are part of the recorded run, so the curl reproduction starts
 * from the same clock. Afterwards, off the record, the run's links are deleted asynchronously (not rate
 * limited) and a clock that was running before the rule runs again.
 */
import { randomUUID } from 'node:crypto';
import { isObject } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import type { TargetConfig } from '../../target/target-config.js';
import { describeAnswer } from '../expect-response.js';
import { fail, type RunContext, type Skip, type SuiteContext } from '../rule.js';
import { CLOCK_ADVANCE, MAX_RUN_ADVANCE_MS } from './advance-clock-command.js';
import { createModel, LINKS, type LinkModel } from './link-model.js';
import { controlledClock, realClock } from './model-clock.js';
import type { AnswerTally, ModelTarget } from './model-target.js';

const CLOCK = '/_ofkit/clock/';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Past the deletion window (DELETE-RATE-LIMIT: 60 s). */
const WINDOW_CLEAR_MS = 61_000;
/** How far from a day boundary a run starts: its advances, and a margin. */
const RUN_SPAN_MS = MAX_RUN_ADVANCE_MS + 10 * 60_000;

/** What the runs of the rule share, set up once. */
export interface ModelFixture {
  controlled: boolean;
  /** The clock was frozen before the rule ran, so it stays frozen after each run. */
  wasFrozen: boolean;
  /** The daily refresh's time of day (ms after midnight UTC), when the control API tells it. */
  dailyRefreshMs: number | null;
  /** The set-up session: its exchanges are not part of failure reports. */
  http: HttpSession;
  config: TargetConfig;
  tally: AnswerTally;
}

/**
 * Every operation a run's commands can send: registrations and retrievals with their MFA resumes, the
 * lists and details they check, the link's update, refresh and deletion, an account's deletion.
 */
export const MODEL_OPERATIONS = [
  'registerLink',
  'resumeLinkRegistration',
  'listLinks',
  'getLink',
  'updateLink',
  'refreshLink',
  'deleteLink',
  'retrieveAccounts',
  'resumeAccountsRetrieval',
  'listAccounts',
  'getAccount',
  'deleteAccount',
  'retrieveTransactions',
  'resumeTransactionsRetrieval',
  'listTransactions',
  'getTransaction',
];

export async function prepareModel(
  suite: SuiteContext,
  note: (text: string) => void,
): Promise<ModelFixture | Skip> {
  const fixture: ModelFixture = {
    controlled: false,
    wasFrozen: false,
    dailyRefreshMs: null,
    http: suite.http,
    config: suite.config,
    tally: new Map(),
  };
  if (!suite.capabilities.controlApi) {
    note(
      'no control API: runs follow real time without AdvanceClock; a cooldown or deletion limit is ' +
        'checked only where the elapsed time decides it',
    );
    return fixture;
  }
  const clock = await suite.http.request({ method: 'GET', url: CLOCK });
  const webhooks = await suite.http.request({ method: 'GET', url: '/_ofkit/webhooks/' });
  const time = isObject(webhooks.json) ? webhooks.json.daily_refresh_time : undefined;
  const match = typeof time === 'string' ? /^(\d{2}):(\d{2})$/.exec(time) : null;
  if (!match)
    note(
      'GET /_ofkit/webhooks/ gave no daily_refresh_time: runs keep clear of midnight (UTC and GMT-3) only',
    );
  return {
    ...fixture,
    controlled: true,
    wasFrozen: isObject(clock.json) && clock.json.frozen === true,
    dailyRefreshMs: match ? Number(match[1]) * HOUR_MS + Number(match[2]) * 60_000 : null,
  };
}

/** The first instant after `after` at one of `offsets` (ms into a UTC day). */
function nextBoundary(after: number, offsets: readonly number[]): number {
  const day = Math.floor(after / DAY_MS) * DAY_MS;
  return Math.min(...offsets.map((offset) => (day + offset > after ? day + offset : day + offset + DAY_MS)));
}

/**
 * How far to move the clock from `now` before a run: past the deletion window, and past any day boundary
 * closer than a run's span: midnight UTC and GMT-3 (the API's region; "the next day" of
 * LINK-ACCESS-MODE-UP) and the daily refresh.
 */
export function setupAdvanceMs(now: number, dailyRefreshMs: number | null): number {
  const offsets = [0, 3 * HOUR_MS, ...(dailyRefreshMs === null ? [] : [dailyRefreshMs])];
  let advance = WINDOW_CLEAR_MS;
  for (let hop = 0; hop <= offsets.length; hop += 1) {
    const next = nextBoundary(now + advance, offsets);
    if (next - (now + advance) > RUN_SPAN_MS) return advance;
    advance = next - now + 1000;
  }
  return advance;
}

/** `now` of a clock answer, or a Violation. */
async function clockCall(http: HttpSession, method: string, url: string, seconds?: number): Promise<number> {
  const answer = await http.request({ method, url, ...(seconds === undefined ? {} : { json: { seconds } }) });
  const now =
    isObject(answer.json) && typeof answer.json.now === 'string' ? Date.parse(answer.json.now) : Number.NaN;
  if (answer.status !== 200 || Number.isNaN(now)) {
    fail(`setting up the run: ${method} ${url} wanted 200 with the clock, got ${describeAnswer(answer)}`);
  }
  return now;
}

/** The model and the real side of a new run. */
export async function startRun(
  run: RunContext,
  fixture: ModelFixture,
): Promise<{ model: LinkModel; target: ModelTarget }> {
  const base = {
    http: run.http,
    config: fixture.config,
    environment: run.environment,
    externalId: `ofkit-model-${randomUUID()}`,
  };
  if (!fixture.controlled) {
    const today = new Date().toISOString().slice(0, 10);
    return { model: createModel(realClock()), target: { ...base, today, tally: fixture.tally } };
  }
  const frozenAt = await clockCall(run.http, 'POST', `${CLOCK}freeze/`);
  const seconds = setupAdvanceMs(frozenAt, fixture.dailyRefreshMs) / 1000;
  const now = await clockCall(run.http, 'POST', CLOCK_ADVANCE, seconds);
  const today = new Date(now).toISOString().slice(0, 10);
  return { model: createModel(controlledClock()), target: { ...base, today, tally: fixture.tally } };
}

/** Off the record: the run's links go (asynchronously), and a running clock runs again. */
export async function endRun(fixture: ModelFixture, model: LinkModel): Promise<void> {
  const headers = { 'x-service-request-mode': 'async' };
  try {
    for (const link of model.links) {
      await fixture.http.request({
        method: 'DELETE',
        url: `${LINKS}${encodeURIComponent(link.id)}/`,
        headers,
      });
    }
    if (fixture.controlled && !fixture.wasFrozen) {
      await fixture.http.request({ method: 'PUT', url: CLOCK, json: { frozen: false } });
    }
  } catch {
    // Clean-up is a courtesy to the target: the run's verdict does not depend on it.
  }
}
