/**
 * WEBHOOK-RETRY: with the clock frozen, the webhook configured with a generated retry interval (tenths of
 * a second from 0.1 to 600 s: admin.yaml allows any positive number) and the receiver answering 500 to
 * the first k attempts of each event (k from 1 to 6), a recurrent link's historical events are each
 * attempted once; the clock then moves n x interval after attempt n (the linear backoff, admin.yaml's
 * choice) until the event is acknowledged or attempted six times. Each event reaches the receiver
 * min(k + 1, 6) times, its attempts in the event log are spaced 1, 2, 3... intervals apart, and it ends
 * `delivered` (k < 6) or `failed` (k = 6: the first delivery and five repetitions).
 */
import fc from 'fast-check';
import { defineRule, fail } from '../rule.js';
import { historicalKeys } from './event-catalogue.js';
import { advanceClock, type LoggedEvent, readEventLog, withFrozenClock } from './webhook-control.js';
import type { Delivery } from './webhook-receiver.js';
import { eventKey } from './webhook-schemas.js';
import { hasKeys, poll, type WebhookSession, withWebhooks } from './webhook-session.js';

interface Input {
  /** How many attempts of each event the receiver answers with 500. */
  failures: number;
  retryIntervalSeconds: number;
}

/** The first delivery and five repetitions. */
const MAX_ATTEMPTS = 6;

const describeEvent = (event: LoggedEvent) =>
  `event ${event.id} (${eventKey(event.payload.webhook_type, event.payload.webhook_code)})`;

const arrivals = (deliveries: readonly Delivery[], event: LoggedEvent) =>
  deliveries.filter((delivery) => delivery.payload?.webhook_id === event.payload.webhook_id).length;

/** Waits until each tracked event has `attempts` attempts in the log and at the receiver. */
async function attemptsReach(hooks: WebhookSession, link: string, ids: Set<string>, attempts: number) {
  const read = async () => (await readEventLog(hooks.run.http, link)).filter((event) => ids.has(event.id));
  const done = (log: LoggedEvent[]) =>
    log.every((e) => e.attempts.length >= attempts && arrivals(hooks.channel.deliveries, e) >= attempts);
  return poll(read, done);
}

function checkEvent(event: LoggedEvent, deliveries: readonly Delivery[], input: Input): void {
  const { failures, retryIntervalSeconds: interval } = input;
  const attempts = Math.min(failures + 1, MAX_ATTEMPTS);
  const what = `with the receiver failing ${failures} times (retry_interval_seconds ${interval}), ${describeEvent(event)}`;
  const arrived = arrivals(deliveries, event);
  if (arrived !== attempts) fail(`${what} reached the receiver ${arrived} times; wanted ${attempts}`);
  if (event.attempts.length !== attempts) {
    fail(`${what} lists ${event.attempts.length} attempts in /_ofkit/events/; wanted ${attempts}`);
  }
  for (let n = 1; n < event.attempts.length; n += 1) {
    const gap = Date.parse(event.attempts[n]!.at) - Date.parse(event.attempts[n - 1]!.at);
    const wanted = Math.round(n * interval * 1000);
    // The log's instants are ISO strings to the millisecond: one millisecond of rounding is allowed.
    if (Math.abs(gap - wanted) > 1) {
      fail(
        `${what}: attempt ${n + 1} came ${gap / 1000} s after attempt ${n}; the linear backoff wants ${wanted / 1000} s`,
      );
    }
  }
  const status = failures < MAX_ATTEMPTS ? 'delivered' : 'failed';
  if (event.status !== status) fail(`${what} is recorded ${event.status}; wanted ${status}`);
}

export const webhookRetry = defineRule<Input>({
  id: 'WEBHOOK-RETRY',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: () =>
    fc.record({
      failures: fc.integer({ min: 1, max: MAX_ATTEMPTS }),
      retryIntervalSeconds: fc.integer({ min: 1, max: 6000 }).map((t) => t / 10),
    }),
  examples: () => [{ failures: MAX_ATTEMPTS, retryIntervalSeconds: 60 }],
  async check(input, run) {
    await withFrozenClock(run.http, () =>
      withWebhooks(run, { retryIntervalSeconds: input.retryIntervalSeconds }, async (hooks) => {
        hooks.channel.failEach(input.failures);
        const link = await hooks.register('link', 'recurrent');
        const { log } = await hooks.collect(link, hasKeys(historicalKeys('link')));
        if (log.length === 0) fail(`registering recurrent link ${link} logged no event to retry`);
        const ids = new Set(log.map((event) => event.id));
        let tracked = await attemptsReach(hooks, link, ids, 1);
        const repetitions = Math.min(input.failures, MAX_ATTEMPTS - 1);
        for (let n = 1; n <= repetitions; n += 1) {
          await advanceClock(run.http, n * input.retryIntervalSeconds);
          tracked = await attemptsReach(hooks, link, ids, n + 1);
        }
        for (const event of tracked) checkEvent(event, hooks.channel.deliveries, input);
      }),
    );
  },
});
