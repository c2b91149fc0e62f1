/** Control API handlers of the webhooks: configuration, event log, daily refresh (being built). */
import type { LinkData } from '../handlers/data-resources/link-data.js';
import type { Handler } from '../handlers/handler.js';

export function webhookControlHandlers(_linkData: LinkData): [string, Handler][] {
  return [];
}
