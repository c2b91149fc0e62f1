/**
 * The marker the dashboard's own calls and the sandbox commands' calls carry. They look at the tenant
 * for a person, not as the client under test: the client judge does not log them, and an armed fault
 * (meant for the client, ERR-500-408) is not spent on them, so looking never changes what is looked at.
 */
import type { SimRequest } from './http-types.js';

export const OBSERVER_HEADER = 'x-ofkit-client';
export const OBSERVER_VALUE = 'dashboard';

/** Whether the request carries the observer marker (header names are lower-case in a SimRequest). */
export function fromObserver(request: SimRequest): boolean {
  return request.headers[OBSERVER_HEADER] === OBSERVER_VALUE;
}
