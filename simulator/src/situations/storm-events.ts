/**
 * The forward-compatibility storm on webhook deliveries: each payload carries members the catalogue does
 * not name (at its top and in `data`), in another order (storm-values.ts), and each event with a
 * `webhook_id` is followed by one of a `webhook_code` the catalogue does not have, of the same type and
 * link: what a newer API version may send (the catalogue grows; a client acknowledges what it does not
 * know and reads nothing for it). Deliveries of a storm carry STORM_HEADER.
 */
import type { RaisedEvent } from '../core/events.js';
import { stormValue } from './storm-values.js';

/** A code each type's catalogue may gain, for the new-code event of the storm. */
const NEW_CODES: Readonly<Record<string, string>> = {
  ACCOUNTS: 'accounts_reclassified',
  TRANSACTIONS: 'transactions_reclassified',
  OWNERS: 'owners_updated',
  LINK: 'link_consent_expiring',
  INVOICES: 'invoices_reclassified',
  TAX_RETURNS: 'tax_returns_amended',
  TAX_STATUS: 'tax_status_updated',
  PAYMENT_AUTHORIZATION: 'payment_authorization_reviewed',
};

/** A payload as a newer API version could send it. */
export function stormPayload<T extends object>(payload: T): T {
  return stormValue(payload) as T;
}

/** The event of a code the catalogue does not have, raised after `event` (none after one of them). */
export function newCodeEvent(event: RaisedEvent): RaisedEvent | undefined {
  if (event.withoutWebhookId) return undefined;
  const code = NEW_CODES[event.webhook_type] ?? `${event.webhook_type.toLowerCase()}_updated`;
  if (event.webhook_code === code) return undefined;
  return {
    webhook_type: event.webhook_type,
    webhook_code: code,
    link_id: event.link_id,
    data: { count: 1, reason: 'reclassification' },
  };
}
