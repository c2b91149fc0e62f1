/** TOKEN-WIDGET: `POST /payments/br/token/`, a short-lived token for biometric enrollment or payment. */

import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';
import { CUSTOMERS, findRecord } from './payment-store.js';

/** (choice) 600 s, as the data widget token. */
export const PAYMENTS_WIDGET_TOKEN_SECONDS = 600;

/** (choice) Tokens are opaque and not kept: the simulator serves no widget that would check them. */
const createPaymentsWidgetToken: Handler = async ({ input, tenant }) => {
  const customer = await findRecord(
    tenant,
    CUSTOMERS,
    String((input.body as { customer: string }).customer),
    'customer',
  );
  if (!customer.ok) return customer;
  return ok(
    json(201, {
      access: `pwa_${tenant.ids.hex(40)}`,
      refresh: `pwr_${tenant.ids.hex(40)}`,
      expires_in: PAYMENTS_WIDGET_TOKEN_SECONDS,
    }),
  );
};

export const paymentsWidgetTokenHandlers: [string, Handler][] = [
  ['createPaymentsWidgetToken', createPaymentsWidgetToken],
];
