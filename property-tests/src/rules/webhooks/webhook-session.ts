/**
 * One run of a webhook rule: a receiver channel of its own, the target configured to deliver to it, the
 * links the run registers, and a bounded wait for deliveries (they are asynchronous). When the run ends
 * the channel is closed, its links are PATCHed back to `single` (later daily refreshes do not keep
 * refreshing them) and the webhook configuration the target had is put back.
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { Registration } from '../../target/target-config.js';
import { registerInRun } from '../data/fresh-link.js';
import type { RunContext } from '../rule.js';
import type { LinkKind } from './event-catalogue.js';
import {
  configureWebhooks,
  type LoggedEvent,
  readEventLog,
  readWebhookConfig,
  restoreWebhooks,
  type WebhookSettings,
} from './webhook-control.js';
import { type Channel, type Delivery, openChannel } from './webhook-receiver.js';
import { eventKey } from './webhook-schemas.js';

/**
 * How long a run waits for deliveries at most, and how often it looks. The wait ends as soon as they
 * arrive, so the bound costs only a target that never delivers; it is wide because deliveries are
 * asynchronous and a loaded CI machine delays them by seconds.
 */
export const POLL_MS = 5000;
const STEP_MS = 20;

export type AccessMode = 'single' | 'recurrent';

/** What the receiver got for a link, and the target's event log of it. */
export interface Collected {
  deliveries: Delivery[];
  log: LoggedEvent[];
}

export interface WebhookSession {
  run: RunContext;
  channel: Channel;
  /** What the target was configured with. */
  settings: WebhookSettings;
  /** Registers a link of the config's fixture `kind` with `access_mode`; its id. */
  register(kind: LinkKind, accessMode: AccessMode): Promise<string>;
  /** Registers `registration` with `access_mode` (resumed with the MFA token on 428); its id. */
  registerWith(registration: Registration, accessMode: AccessMode): Promise<string>;
  /** The link's deliveries so far (payloads with its `link_id`). */
  deliveriesOf(link: string): Delivery[];
  /**
   * Waits (at most POLL_MS) until `ready` holds for the link's deliveries and every event the log lists
   * for the link has been attempted; then what was received and logged.
   */
  collect(link: string, ready?: (deliveries: Delivery[]) => boolean): Promise<Collected>;
}

const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, milliseconds);
  });

/** Reads until `done` holds or POLL_MS have passed; the last value read. */
export async function poll<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = performance.now() + POLL_MS;
  for (;;) {
    const value = await read();
    if (done(value) || performance.now() >= deadline) return value;
    await sleep(STEP_MS);
  }
}

/** The payloads of deliveries. */
export const payloadsOf = (deliveries: readonly Delivery[]): JsonObject[] =>
  deliveries.flatMap((delivery) => (delivery.payload ? [delivery.payload] : []));

/** `<type> <code>` of each delivery's payload, in arrival order. */
export const keysOf = (deliveries: readonly Delivery[]) =>
  payloadsOf(deliveries).map((payload) => eventKey(payload.webhook_type, payload.webhook_code));

/** Every key of `wanted` has arrived. */
export const hasKeys = (wanted: readonly string[]) => (deliveries: readonly Delivery[]) => {
  const keys = new Set(keysOf(deliveries));
  return wanted.every((key) => keys.has(key));
};

const attempted = (log: readonly LoggedEvent[]) =>
  log.every((event) => event.attempts.length > 0 || event.status !== 'pending');

/** The run's links back to `single` (later daily refreshes leave them be), the configuration as it was. */
async function cleanUp(run: RunContext, links: readonly string[], previous: JsonObject): Promise<void> {
  const quietly = (request: Promise<unknown>) => request.catch(() => undefined);
  for (const link of links) {
    await quietly(
      run.http.request({ method: 'PATCH', url: `/api/links/${link}/`, json: { access_mode: 'single' } }),
    );
  }
  await quietly(restoreWebhooks(run.http, previous));
}

/** Opens a channel, configures the target to deliver to it, runs `body`, then cleans up. */
export async function withWebhooks<T>(
  run: RunContext,
  settings: WebhookSettings,
  body: (session: WebhookSession) => Promise<T>,
): Promise<T> {
  const channel = await openChannel(run.config.receiver);
  const links: string[] = [];
  const deliveriesOf = (link: string) =>
    channel.deliveries.filter((delivery) => delivery.payload?.link_id === link);
  const session: WebhookSession = {
    run,
    channel,
    settings,
    async registerWith(registration, accessMode) {
      const link = await registerInRun(run, { ...registration, access_mode: accessMode });
      links.push(link);
      return link;
    },
    register: (kind, accessMode) => session.registerWith(run.config.fixtures[kind], accessMode),
    deliveriesOf,
    async collect(link, ready = () => true) {
      const read = async () => ({ log: await readEventLog(run.http, link), deliveries: deliveriesOf(link) });
      const done = ({ log, deliveries }: Collected) => attempted(log) && ready(deliveries);
      const { log } = await poll(read, done);
      return { log, deliveries: deliveriesOf(link) };
    },
  };
  const previous = await readWebhookConfig(run.http);
  try {
    await configureWebhooks(run.http, channel.url, settings);
    return await body(session);
  } finally {
    channel.close();
    await cleanUp(run, links, previous);
  }
}
