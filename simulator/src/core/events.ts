/**
 * The seam between handlers and the webhook emitter: a handler raises an event of the catalogue
 * (WEBHOOK-SHAPE without `webhook_id`); the emitter numbers, logs and delivers it.
 */
export interface RaisedEvent {
  webhook_type: string;
  webhook_code: string;
  link_id: string | null;
  data: Record<string, unknown>;
  /** LINK-TOKEN-REQUIRED: that event carries no `webhook_id`. */
  withoutWebhookId?: boolean;
}

export type RaiseEvent = (event: RaisedEvent) => void;
