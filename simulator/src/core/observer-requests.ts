/**
 * Observers never change what they observe: the dashboard reads the API as a tenant, and its reads must
 * leave the tenant's armed faults (ERR-500-408) for the client under test. Its calls carry
 * `x-ofkit-client: dashboard`; its actions (refresh, delete...) are the user's and count as any request.
 */
import type { SimRequest } from './http-types.js';

/** The header the dashboard's own calls carry, and its value. */
export const DASHBOARD_HEADER = 'x-ofkit-client';
export const DASHBOARD_CLIENT = 'dashboard';

const READS = new Set(['GET', 'HEAD']);

/** A dashboard call, whatever its method (the client judge leaves them all out of its log). */
export const isDashboardCall = (request: SimRequest): boolean =>
  request.headers[DASHBOARD_HEADER] === DASHBOARD_CLIENT;

/** A read by the dashboard: answered as any read, but it takes no armed fault. */
export const isObserverRead = (request: SimRequest): boolean =>
  isDashboardCall(request) && READS.has(request.method);
