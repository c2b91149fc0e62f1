/**
 * The PATCH side of the link event rules (LINK-ACCESS-MODE-UP, LINK-ACCESS-MODE-DOWN,
 * LINK-PATCH-NO-UPDATE): a PATCH of the link, and the clock moved to the end of "the next day" (when an
 * access-mode change runs its historical update), after which the events the PATCH caused are those the
 * receiver and the log got since it.
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';
import { advanceClock, type LoggedEvent, readClock, secondsToEndOfNextDay } from './webhook-control.js';
import type { Delivery } from './webhook-receiver.js';
import { eventKey } from './webhook-schemas.js';
import { type Collected, keysOf, type WebhookSession } from './webhook-session.js';

/** PATCH /api/links/{id}/ answered 200 (the PATCH itself is the links area's). */
export async function patchLink(hooks: WebhookSession, link: string, json: JsonObject): Promise<void> {
  const url = `/api/links/${link}/`;
  const answer = await hooks.run.http.request({ method: 'PATCH', url, json });
  if (answer.status !== 200) fail(`PATCH ${url} ${JSON.stringify(json)} answered ${describeAnswer(answer)}`);
}

/** The link's events since `before`: keys delivered and keys logged. */
export function keysSince(before: Collected, after: Collected): { delivered: string[]; logged: string[] } {
  const delivered: Delivery[] = after.deliveries.slice(before.deliveries.length);
  const logged: LoggedEvent[] = after.log.slice(before.log.length);
  return {
    delivered: keysOf(delivered),
    logged: logged.map((event) => eventKey(event.payload.webhook_type, event.payload.webhook_code)),
  };
}

/**
 * PATCHes the link (once the events before it have settled), moves the clock to the last second of the
 * next day, and returns the link's events before and after, and the instant of the PATCH.
 */
export async function patchThenNextDay(hooks: WebhookSession, link: string, json: JsonObject) {
  const before = await hooks.collect(link);
  const { now } = await readClock(hooks.run.http);
  await patchLink(hooks, link, json);
  await advanceClock(hooks.run.http, secondsToEndOfNextDay(now));
  const after = await hooks.collect(link);
  return { before, after, patchedAt: now };
}
