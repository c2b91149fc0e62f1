/**
 * Handlers of the control API, `openapi/admin.yaml`, each acting on the caller's tenant only: state
 * (reset, snapshot), clock, scenario switches and faults. The webhook operations are in
 * `control/webhook-handlers.ts`.
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import type { Handler } from '../core/handler.js';
import { clockHandlers } from './clock-handlers.js';
import { faultHandlers } from './fault-handlers.js';
import { scenarioHandlers } from './scenario-handlers.js';
import { stateHandlers } from './state-handlers.js';

export { KEPT_ON_RESET } from './state-handlers.js';

/** `api`: the bundled API document (faults name its operations). */
export function controlHandlers(api: JsonObject): [string, Handler][] {
  return [...stateHandlers(api), ...clockHandlers, ...scenarioHandlers, ...faultHandlers(api)];
}
