/** Payment transactions: one inflow record for each charge that SUCCEEDED (list and detail). */

import type { Handler } from '../core/handler.js';
import { ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { nowIso, publicView, recordAnswer } from '../pipeline/records.js';
import type { ChargeParties } from './charge-parties.js';
import type { ChargeRecord, TransactionRecord } from './payment-records.js';
import { findRecord, listRecords, pageOf, putRecord, TRANSACTIONS } from './payment-store.js';

/** Records the inflow of a paid charge; none when the beneficiary is not a registered account (choice). */
export async function recordInflow(
  tenant: TenantRuntime,
  charge: ChargeRecord,
  parties: ChargeParties | undefined,
): Promise<void> {
  const account = parties?.beneficiary;
  if (!parties || !account) return;
  const transaction: TransactionRecord = {
    id: tenant.ids.uuid(),
    created_at: nowIso(tenant),
    charge: charge.id,
    type: 'INFLOW',
    amount: charge.amount,
    currency: 'BRL',
    status: 'SUCCEEDED',
    beneficiary: {
      bank_account: account.id,
      name: account.holder_name,
      identifier: account.holder_identifier,
      institution: account.institution,
      agency: account.agency,
      number: account.number,
    },
    payer: parties.payer,
    end_to_end_id: charge.end_to_end_id ?? '',
  };
  await putRecord(tenant, TRANSACTIONS, transaction);
}

const listPaymentTransactions: Handler = async ({ input, tenant, request }) =>
  ok(pageOf(await listRecords(tenant, TRANSACTIONS), input.query, request, publicView));

const getPaymentTransaction: Handler = async ({ input, tenant }) => {
  const found = await findRecord(tenant, TRANSACTIONS, input.path.id!);
  return found.ok ? ok(recordAnswer(200, found.value)) : found;
};

export const paymentTransactionHandlers: [string, Handler][] = [
  ['listPaymentTransactions', listPaymentTransactions],
  ['getPaymentTransaction', getPaymentTransaction],
];
