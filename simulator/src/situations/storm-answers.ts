/**
 * The forward-compatibility storm on the API's answers: a 2xx answer of the API (never the control
 * API's, never the dashboard's reads) to a tenant whose storm is on goes out as a newer API version
 * could send it (storm-values.ts), marked with STORM_HEADER. Errors keep their shape: their `code`,
 * `field` and `request_id` are what a client acts on, and a newer version keeps them too.
 */
import type { SimRequest, SimResponse } from '../core/http-types.js';
import { isDashboardCall } from '../core/observer-requests.js';
import type { TenantRuntime } from '../core/tenant.js';
import { STORM_HEADER, STORM_MARK, type StormSwitch } from './storm-switch.js';
import { stormValue } from './storm-values.js';

/** What the pipeline tells of an exchange: the tenant, once authenticated. */
interface Meta {
  tenantId?: string;
}

type Handle = (request: SimRequest, meta: Meta) => Promise<SimResponse>;

/** `response` as a storm answer: its body stormed, its faster serializations dropped, marked. */
export function stormedAnswer(response: SimResponse): SimResponse {
  const { serialize: _serialize, chunks: _chunks, ...rest } = response;
  return {
    ...rest,
    headers: { ...rest.headers, [STORM_HEADER]: STORM_MARK },
    body: stormValue(response.body),
  };
}

/** Wraps the pipeline's `handle`: the storm on the answers of the tenants whose storm is on. */
export function stormAnswers(
  handle: Handle,
  storm: StormSwitch,
  tenantFor: (id: string) => TenantRuntime,
): Handle {
  return async (request, meta) => {
    const response = await handle(request, meta);
    const api = !request.path.startsWith('/_ofkit/') && !isDashboardCall(request);
    if (!api || meta.tenantId === undefined || response.status >= 300 || response.body === undefined)
      return response;
    const tenant = tenantFor(meta.tenantId);
    return (storm.isOnNow(tenant) ?? (await storm.isOn(tenant))) ? stormedAnswer(response) : response;
  };
}
