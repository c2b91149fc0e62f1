/** Handlers of the control API, `openapi/admin.yaml` (being built). */
import type { Handler } from '../handler.js';

export function controlHandlers(): [string, Handler][] {
  return [];
}
