/**
 * The events a sandbox operation raised for a link, as logged: the operation runs, then the event log
 * (which waits for its writes) is read again and the link's new events are the answer.
 */
import type { TenantRuntime } from '../core/tenant.js';
import { type EventRecord, listEvents } from '../webhooks/event-log.js';
import { readWebhookConfig } from '../webhooks/webhook-config.js';

/** Runs `work`, then returns the link's events logged since it started, oldest first. */
export async function eventsRaisedBy(
  tenant: TenantRuntime,
  link: string,
  work: () => Promise<void>,
): Promise<EventRecord[]> {
  const before = new Set((await listEvents(tenant, { link })).map((event) => event.id));
  await work();
  return (await listEvents(tenant, { link })).filter((event) => !before.has(event.id));
}

/** WEBHOOK-SANDBOX: true when the tenant's receiver gets no LINK events (the sandbox environment). */
export async function sandboxSendsNoLinkEvents(tenant: TenantRuntime): Promise<boolean> {
  const { environment } = await readWebhookConfig(tenant);
  return environment === 'sandbox' && !tenant.policy.webhooks.linkEventsInSandbox;
}

export const SANDBOX_NOTE =
  'The sandbox environment sends no LINK events (WEBHOOK-SANDBOX): the status changed, no event was sent.';
