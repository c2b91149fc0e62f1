/**
 * The forward-compatibility storm's control operations (`/_ofkit/storm/`, admin.yaml): read and set the
 * caller's tenant's switch. Only the switch: the storm itself is situations/.
 */
import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { type StormSwitch, setStorm } from '../situations/storm-switch.js';

export function stormControlHandlers(storm: StormSwitch): [string, Handler][] {
  const setting = async (tenant: TenantRuntime) =>
    json(200, { enabled: await storm.isOn(tenant), by_default: storm.byDefault });
  const getStorm: Handler = async ({ tenant }) => ok(await setting(tenant));
  const setStormHandler: Handler = async ({ input, tenant }) => {
    await setStorm(tenant, (input.body as { enabled: boolean | null }).enabled);
    return ok(await setting(tenant));
  };
  return [
    ['getStorm', getStorm],
    ['setStorm', setStormHandler],
  ];
}
