/**
 * The payment requests the PAY-* rules share, each sent through the run's recording session (so a
 * failure reproduces as the whole sequence of curl commands) and each required to answer as the
 * document says; any other answer is a violation naming the step.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { HttpResponse, HttpSession } from '../../http/http-client.js';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';
import { isoOf } from './payment-dates.js';

/** PAY-VERSION-HEADER, PAY-AUTH-V2-REQUIRED: the header and the value that select V2. */
export const VERSION_HEADER = 'X-Service-API-Resource-Version';
export const V2 = 'Payments-BR.V2';
export const V2_HEADERS: Record<string, string> = { [VERSION_HEADER]: V2 };

export const PAYMENTS = '/payments/br';
export const AUTHORIZATIONS = `${PAYMENTS}/payment-authorizations/`;
export const INTENTS = `${PAYMENTS}/payment-intents/`;
const CONTROL = '/_ofkit';

export interface Call {
  method: string;
  url: string;
  json?: JsonValue;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Sends `call`; its answer must have one of `statuses`. */
export async function expectAnswer(
  http: HttpSession,
  call: Call,
  statuses: readonly number[],
  what: string,
): Promise<HttpResponse> {
  const answer = await http.request(call);
  if (!statuses.includes(answer.status)) {
    fail(
      `${what} (${call.method} ${call.url}): wanted ${statuses.join(' or ')}, got ${describeAnswer(answer)}`,
    );
  }
  return answer;
}

/** Sends `call`; it must answer one of `statuses` with a JSON object, which is returned. */
export async function expectObject(
  http: HttpSession,
  call: Call,
  statuses: readonly number[],
  what: string,
): Promise<JsonObject> {
  const answer = await expectAnswer(http, call, statuses, what);
  if (!isObject(answer.json)) fail(`${what}: wanted a JSON object, got ${describeAnswer(answer)}`);
  return answer.json;
}

/** A string member of an answer, or a violation naming it. */
export function member(body: JsonObject, name: string, what: string): string {
  const value = body[name];
  if (typeof value !== 'string')
    fail(`${what}: the answer has no string \`${name}\`: ${JSON.stringify(body)}`);
  return value;
}

/** Every record of a list (PAGE-MAX page size; the PAY-* rules make few records per run). */
export async function listResults(
  http: HttpSession,
  url: string,
  what: string,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<JsonObject[]> {
  const call = { method: 'GET', url, query: { page_size: '1000', ...query }, headers };
  const page = await expectObject(http, call, [200], what);
  if (!Array.isArray(page.results)) fail(`${what}: the page has no \`results\`: ${JSON.stringify(page)}`);
  return page.results.filter(isObject);
}

/** The control API's clock (`GET /_ofkit/clock/`). */
export interface ClockState {
  now: string;
  frozen: boolean;
  /** This machine's time when it was read: an unfrozen clock has moved on by as much since. */
  readAt: number;
}

export async function readClock(http: HttpSession): Promise<ClockState> {
  const clock = await expectObject(
    http,
    { method: 'GET', url: `${CONTROL}/clock/` },
    [200],
    'reading the clock',
  );
  const now = member(clock, 'now', 'reading the clock');
  return { now, frozen: clock.frozen === true, readAt: Date.now() };
}

/** Sets the target's clock, frozen (moving forward runs every job that falls due on the way). */
export async function setClock(http: HttpSession, instant: number): Promise<void> {
  const json = { now: isoOf(instant), frozen: true };
  await expectAnswer(http, { method: 'PUT', url: `${CONTROL}/clock/`, json }, [200], 'setting the clock');
}

/** Puts the clock back where it would be had the rule not moved it (moving backward runs no job). */
export async function restoreClock(http: HttpSession, clock: ClockState): Promise<void> {
  const elapsed = clock.frozen ? 0 : Date.now() - clock.readAt;
  const json = { now: isoOf(Date.parse(clock.now) + elapsed), frozen: clock.frozen };
  await http.request({ method: 'PUT', url: `${CONTROL}/clock/`, json });
}

/** The control API's user actions: `confirm`/`reject` an authorization, `authorize`/`reject` an intent. */
export async function userAction(
  http: HttpSession,
  resource: 'payment-authorizations' | 'payment-intents',
  id: string,
  action: 'confirm' | 'reject' | 'authorize',
): Promise<JsonObject> {
  const url = `${CONTROL}/${resource}/${encodeURIComponent(id)}/${action}/`;
  return expectObject(http, { method: 'POST', url }, [200], `the user's ${action} through the control API`);
}

/** Switches `next_charge_fails` on for the next charge of payers at `institution` (PAY-CHARGE-RETRY). */
export async function nextChargeFails(http: HttpSession, institution: string): Promise<void> {
  const json = { scenario: 'next_charge_fails', institution, count: 1 };
  const call = { method: 'POST', url: `${CONTROL}/scenarios/`, json };
  await expectAnswer(http, call, [201], 'switching next_charge_fails on');
}

/** The payloads of the event log (`GET /_ofkit/events/`) of one webhook type and code. */
export async function eventPayloads(http: HttpSession, type: string, code: string): Promise<JsonObject[]> {
  const call = {
    method: 'GET',
    url: `${CONTROL}/events/`,
    query: { webhook_type: type, webhook_code: code },
  };
  const answer = await expectAnswer(http, call, [200], 'reading the event log');
  const records = Array.isArray(answer.json) ? answer.json.filter(isObject) : [];
  return records.map((record) => record.payload).filter(isObject);
}
