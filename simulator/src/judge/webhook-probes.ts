/**
 * The judge's probes of the webhook receiver (`POST /_ofkit/judge/probes/`): a forged delivery without
 * the bearer token (CLIENT-WEBHOOK-BEARER) and a repeated delivery of the last delivered event, same
 * `webhook_id` (CLIENT-WEBHOOK-DUPLICATE). Each answer goes into the tenant's log.
 */
import { systemTime } from '../clock/system-time.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { postWebhook } from '../webhooks/delivery.js';
import { listEvents, type WebhookPayload } from '../webhooks/event-log.js';
import { readWebhookConfig } from '../webhooks/webhook-config.js';
import { DEFAULT_TIMEOUT_MS } from '../webhooks/webhook-emitter.js';
import { webhookState } from '../webhooks/webhook-state.js';
import type { JudgeLog } from './judge-log.js';
import type { LoggedDelivery } from './request-log.js';

export type ProbeKind = 'forged_delivery' | 'duplicate_delivery';

const refuse = (message: string): Result<never, ApiErrors> =>
  err(apiError('invalid', { field: 'probe', message }));

/** A forged event: what an attacker who knows the receiver's URL could POST. */
function forgedPayload(tenant: TenantRuntime, link: string | null): WebhookPayload {
  return {
    webhook_id: `forged-${tenant.ids.hex(16)}`,
    webhook_type: 'TRANSACTIONS',
    webhook_code: 'transactions_updated',
    link_id: link,
    data: { count: 0, updated_transactions: [] },
  };
}

export async function sendProbe(
  tenant: TenantRuntime,
  kind: ProbeKind,
  log: JudgeLog,
): Promise<Result<LoggedDelivery, ApiErrors>> {
  const config = await readWebhookConfig(tenant);
  if (config.url === null || config.mode === 'record')
    return refuse('No webhook receiver is configured (PUT /_ofkit/webhooks/).');
  const events = await listEvents(tenant);
  const delivered = events.filter((event) => event.status === 'delivered').at(-1);
  let payload: WebhookPayload;
  let bearer: string | null;
  if (kind === 'forged_delivery') {
    if (config.bearer_token === null)
      return refuse(
        'A forged delivery needs a bearer token configured: without one, any delivery is genuine.',
      );
    payload = forgedPayload(tenant, delivered?.payload.link_id ?? events.at(-1)?.payload.link_id ?? null);
    bearer = null;
  } else {
    if (!delivered) return refuse('No event has been delivered yet: there is nothing to repeat.');
    payload = delivered.payload;
    bearer = config.bearer_token;
  }
  const started = systemTime();
  // The emitter's checked connections (destinations.ts), never a break of the delivery. Every tenant of
  // the assembled simulator has them; a tenant made without an emitter (a unit test's) is probed plainly.
  const target = { url: config.url, bearerToken: bearer };
  const probe = webhookState(tenant).probe;
  const outcome = probe
    ? await probe(target, payload)
    : await postWebhook(target, payload, { timeoutMs: DEFAULT_TIMEOUT_MS });
  const observed: LoggedDelivery = {
    at: new Date(tenant.clock.now()).toISOString(),
    kind: kind === 'forged_delivery' ? 'forged' : 'duplicate',
    webhook_id: payload.webhook_id ?? null,
    webhook_type: payload.webhook_type,
    webhook_code: payload.webhook_code,
    link_id: payload.link_id,
    data: payload.data,
    attempt: 1,
    ...outcome,
    duration_ms: Math.max(0, systemTime() - started),
  };
  log.delivery(tenant.id, observed);
  return ok(observed);
}
