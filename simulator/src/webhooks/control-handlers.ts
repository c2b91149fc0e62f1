/** Control API handlers of the webhooks: configuration, event log, daily refresh (being built). */
import type { Handler } from '../handlers/handler.js';

export function webhookControlHandlers(): [string, Handler][] {
  return [];
}
