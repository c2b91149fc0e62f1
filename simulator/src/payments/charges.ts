/** Every charge of the account, of payment authorizations and of payment intents (list and detail). */

import { type Handler, json } from '../core/handler.js';
import { ok } from '../core/result.js';
import { CHARGES, findRecord, listRecords, namedIdView, pageOf } from './payment-store.js';

const listCharges: Handler = async ({ input, tenant, request }) =>
  ok(pageOf(await listRecords(tenant, CHARGES), input.query, request, namedIdView));

const getCharge: Handler = async ({ input, tenant }) => {
  const found = await findRecord(tenant, CHARGES, input.path.charge_id!);
  return found.ok ? ok(json(200, namedIdView(found.value))) : found;
};

export const chargeHandlers: [string, Handler][] = [
  ['listCharges', listCharges],
  ['getCharge', getCharge],
];
