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
  /**
   * The event's id (its `webhook_id`), when the raiser fixes it: a job that runs again raises the same
   * event again, and it is logged and delivered once. Absent: the emitter draws a new id.
   */
  id?: string;
}

/**
 * Raises an event; the promise (when the emitter gives one) resolves once the event is in the log
 * and its delivery can no longer be lost with this process (a job awaits it before it is done).
 */
export type RaiseEvent = (event: RaisedEvent) => void | Promise<void>;
