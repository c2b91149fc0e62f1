/**
 * A tenant's webhook configuration (admin.yaml `WebhookConfig`), kept in the store under
 * `_ofkit/webhooks` so the control API's snapshot carries it. Until a PUT, a tenant has the
 * command line's receiver and the defaults below.
 */
import type { TenantRuntime } from '../core/tenant.js';
import { MINUTE_MS } from '../core/time.js';
import { webhookState } from './webhook-state.js';

export const WEBHOOKS_COLLECTION = '_ofkit/webhooks';
const CONFIG_ID = 'config';

export type WebhookEnvironment = 'production' | 'sandbox';

export interface WebhookConfig {
  url: string | null;
  /** WEBHOOK-BEARER: sent as `Authorization: Bearer <token>` when set. */
  bearer_token: string | null;
  /** WEBHOOK-SANDBOX: sandbox sends no LINK events and a historical update on every link creation. */
  environment: WebhookEnvironment;
  /** WEBHOOK-RETRY: repetition n waits n times this many seconds after the attempt before it. */
  retry_interval_seconds: number;
  /** `record` only logs events (status `recorded`), for tests without a receiver. */
  mode: 'deliver' | 'record';
  /** WEBHOOK-DAILY: `HH:MM` of the tenant's clock (UTC) when recurrent links refresh. */
  daily_refresh_time: string;
  /** Each event's first attempt held back this long on the tenant's clock (held-deliveries.ts). */
  delivery_delay_seconds: number;
  /** `interleaved`: events held together go out with different links and resources in another order. */
  delivery_order: 'raised' | 'interleaved';
}

export const DEFAULT_RETRY_INTERVAL_SECONDS = 60;
export const DEFAULT_DAILY_REFRESH_TIME = '06:00';

/**
 * A complete configuration from a PUT body (already valid against the schema) or nothing: absent
 * members take admin.yaml's defaults (the receiver and the delivery's hold and order: the command
 * line's), except `environment`, which defaults to the environment of the tenant's API key (choice: a
 * sandbox key behaves like the sandbox unless told otherwise).
 */
export function completeConfig(tenant: TenantRuntime, body: Partial<WebhookConfig> = {}): WebhookConfig {
  const defaults = webhookState(tenant).defaults;
  return {
    url: body.url === undefined ? defaults.url : body.url,
    bearer_token: body.bearer_token === undefined ? defaults.bearer_token : body.bearer_token,
    environment: body.environment ?? tenant.environment,
    retry_interval_seconds: body.retry_interval_seconds ?? DEFAULT_RETRY_INTERVAL_SECONDS,
    mode: body.mode ?? 'deliver',
    daily_refresh_time: body.daily_refresh_time ?? DEFAULT_DAILY_REFRESH_TIME,
    delivery_delay_seconds: body.delivery_delay_seconds ?? defaults.delivery_delay_seconds ?? 0,
    delivery_order: body.delivery_order ?? defaults.delivery_order ?? 'raised',
  };
}

/** The tenant's configuration: the stored one, or the defaults. */
export async function readWebhookConfig(tenant: TenantRuntime): Promise<WebhookConfig> {
  const stored = await tenant.store.get(WEBHOOKS_COLLECTION, CONFIG_ID);
  if (!stored) return completeConfig(tenant);
  const { id: _id, ...config } = stored;
  return completeConfig(tenant, config as Partial<WebhookConfig>);
}

/** Replaces the configuration (PUT semantics: absent members take their defaults) and returns it. */
export async function writeWebhookConfig(
  tenant: TenantRuntime,
  body: Partial<WebhookConfig>,
): Promise<WebhookConfig> {
  const config = completeConfig(tenant, body);
  await tenant.store.put(WEBHOOKS_COLLECTION, { id: CONFIG_ID, ...config });
  return config;
}

/** Milliseconds after midnight (UTC) of `HH:MM`. */
export function dailyOffsetMs(time: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return (hours * 60 + minutes) * MINUTE_MS;
}
