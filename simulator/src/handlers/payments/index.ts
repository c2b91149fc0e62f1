/** Handlers of the Brazil payments operations (being built). */
import type { Handler } from '../handler.js';

export function paymentHandlers(): [string, Handler][] {
  return [];
}
