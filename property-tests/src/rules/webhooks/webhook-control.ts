/**
 * The control API (openapi/admin.yaml) as the webhook rules use it: the webhook configuration, the event
 * log with its delivery attempts, the daily refresh on demand, the link scenarios and the tenant's
 * clock. Every call goes through the run's recording session, so a failure's curl reproduction has it.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';

/** WEBHOOK-DAILY: the hour (UTC) the rules configure for the daily refresh. */
export const DAILY_REFRESH_TIME = '06:00';
export const DAY_SECONDS = 86_400;

export interface WebhookSettings {
  /** WEBHOOK-BEARER. */
  bearerToken?: string | null;
  /** WEBHOOK-SANDBOX. */
  environment?: 'production' | 'sandbox';
  /** WEBHOOK-RETRY: the linear backoff step. */
  retryIntervalSeconds?: number;
  /** WEBHOOK-DAILY: `HH:MM` (UTC) of the daily refresh; default DAILY_REFRESH_TIME. */
  dailyRefreshTime?: string;
}

export interface DeliveryAttempt {
  at: string;
  status: number | null;
}

/** An event of `GET /_ofkit/events/`. */
export interface LoggedEvent {
  id: string;
  created_at: string;
  status: string;
  payload: JsonObject;
  attempts: DeliveryAttempt[];
}

async function call(http: HttpSession, method: string, url: string, json?: JsonValue, wanted = [200]) {
  const answer = await http.request({ method, url, ...(json === undefined ? {} : { json }) });
  if (!wanted.includes(answer.status)) {
    const body = json === undefined ? '' : ` ${JSON.stringify(json)}`;
    fail(`control API: ${method} ${url}${body} answered ${describeAnswer(answer)}`);
  }
  return answer;
}

/** PUT /_ofkit/webhooks/: deliver to `url` with the given settings. */
export async function configureWebhooks(http: HttpSession, url: string, settings: WebhookSettings) {
  await call(http, 'PUT', '/_ofkit/webhooks/', {
    url,
    bearer_token: settings.bearerToken ?? null,
    environment: settings.environment ?? 'production',
    retry_interval_seconds: settings.retryIntervalSeconds ?? 60,
    mode: 'deliver',
    daily_refresh_time: settings.dailyRefreshTime ?? DAILY_REFRESH_TIME,
  });
}

/** GET /_ofkit/webhooks/: the configuration as it is, to be put back with `restoreWebhooks`. */
export async function readWebhookConfig(http: HttpSession): Promise<JsonObject> {
  const answer = await call(http, 'GET', '/_ofkit/webhooks/');
  if (!isObject(answer.json)) fail(`control API: GET /_ofkit/webhooks/ answered ${describeAnswer(answer)}`);
  return answer.json;
}

/** PUT /_ofkit/webhooks/ of a configuration read before (its receiver gets the target's later events). */
export async function restoreWebhooks(http: HttpSession, config: JsonObject): Promise<void> {
  await http.request({ method: 'PUT', url: '/_ofkit/webhooks/', json: config });
}

function toEvent(value: JsonValue): LoggedEvent[] {
  if (!isObject(value) || !isObject(value.payload)) return [];
  const attempts = Array.isArray(value.attempts) ? value.attempts.filter(isObject) : [];
  return [
    {
      id: String(value.id),
      created_at: String(value.created_at),
      status: String(value.status),
      payload: value.payload,
      attempts: attempts.map((a) => ({
        at: String(a.at),
        status: typeof a.status === 'number' ? a.status : null,
      })),
    },
  ];
}

/** GET /_ofkit/events/?link=: the link's events, oldest first. */
export async function readEventLog(http: HttpSession, link: string): Promise<LoggedEvent[]> {
  const answer = await http.request({ method: 'GET', url: '/_ofkit/events/', query: { link } });
  if (answer.status !== 200 || !Array.isArray(answer.json)) {
    fail(`control API: GET /_ofkit/events/?link=${link} answered ${describeAnswer(answer)}`);
  }
  return answer.json.flatMap(toEvent);
}

/** POST /_ofkit/daily-refresh/ (WEBHOOK-DAILY). */
export async function runDailyRefresh(http: HttpSession): Promise<void> {
  await call(http, 'POST', '/_ofkit/daily-refresh/', undefined, [202]);
}

/** POST /_ofkit/scenarios/ for one link (`next_refresh_invalid_credentials` or `..._token_required`). */
export async function addLinkScenario(http: HttpSession, scenario: string, link: string): Promise<void> {
  await call(http, 'POST', '/_ofkit/scenarios/', { scenario, link }, [201]);
}

/** The tenant's clock: now (epoch ms) and whether it is frozen. */
export async function readClock(http: HttpSession): Promise<{ now: number; frozen: boolean }> {
  const answer = await call(http, 'GET', '/_ofkit/clock/');
  const body = isObject(answer.json) ? answer.json : {};
  const now = Date.parse(String(body.now));
  if (Number.isNaN(now))
    fail(`control API: GET /_ofkit/clock/ has no date-time now: ${describeAnswer(answer)}`);
  return { now, frozen: body.frozen === true };
}

/** Moves the clock forward (the jobs that fall due run); nothing for `seconds` <= 0. */
export async function advanceClock(http: HttpSession, seconds: number): Promise<void> {
  if (seconds > 0) await call(http, 'POST', '/_ofkit/clock/advance/', { seconds });
}

/** Runs `body` with the clock frozen (exact instants), then lets it follow real time again if it did. */
export async function withFrozenClock<T>(http: HttpSession, body: () => Promise<T>): Promise<T> {
  const { frozen } = await readClock(http);
  if (!frozen) await call(http, 'POST', '/_ofkit/clock/freeze/');
  try {
    return await body();
  } finally {
    if (!frozen) await http.request({ method: 'PUT', url: '/_ofkit/clock/', json: { frozen: false } });
  }
}

/** Seconds from `now` to the next `HH:MM` (UTC) of the clock, at least 1. */
export function secondsUntilDailyTime(now: number, time = DAILY_REFRESH_TIME): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const day = Math.floor(now / (DAY_SECONDS * 1000)) * DAY_SECONDS * 1000;
  let next = day + (hours * 60 + minutes) * 60_000;
  if (next <= now) next += DAY_SECONDS * 1000;
  return Math.max(1, Math.ceil((next - now) / 1000));
}

/** Seconds from `now` to the last second of the next day (UTC): the whole of "the next day" has passed. */
export function secondsToEndOfNextDay(now: number): number {
  const nextDayEnd = (Math.floor(now / (DAY_SECONDS * 1000)) + 2) * DAY_SECONDS * 1000 - 1000;
  return Math.ceil((nextDayEnd - now) / 1000);
}

/** The UTC date (YYYY-MM-DD) of an instant. */
export const utcDate = (instant: number) => new Date(instant).toISOString().slice(0, 10);
