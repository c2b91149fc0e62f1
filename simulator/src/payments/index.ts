/**
 * Handlers of the Brazil payments operations (every `/payments/br/...` operationId) and of the control
 * API's payment actions, keyed by operationId.
 */

import type { Handler } from '../core/handler.js';
import type { JobKinds } from '../core/job-kinds.js';
import { authorizationChargeHandlers } from './authorization-charges.js';
import { authorizationJobs } from './authorization-lifecycle.js';
import { authorizationScheduleJobs } from './authorization-schedule.js';
import { bankAccountHandlers } from './bank-accounts.js';
import { chargeHandlers } from './charges.js';
import { customerHandlers } from './customers.js';
import { enrollmentHandlers, enrollmentJobs } from './enrollments.js';
import { intentChargeHandlers } from './intent-charges.js';
import { intentJobs } from './intent-lifecycle.js';
import { paymentAuthorizationHandlers } from './payment-authorizations.js';
import { paymentControlHandlers } from './payment-control.js';
import { paymentInstitutionHandlers } from './payment-institutions.js';
import { paymentIntentHandlers } from './payment-intents.js';
import { paymentTransactionHandlers } from './payment-transactions.js';
import { paymentsWidgetTokenHandlers } from './payments-widget-token.js';

/** The API's payment operations. */
export function paymentApiHandlers(): [string, Handler][] {
  return [
    ...paymentInstitutionHandlers,
    ...customerHandlers,
    ...bankAccountHandlers,
    ...paymentIntentHandlers,
    ...intentChargeHandlers,
    ...paymentAuthorizationHandlers,
    ...authorizationChargeHandlers,
    ...chargeHandlers,
    ...paymentTransactionHandlers,
    ...enrollmentHandlers,
    ...paymentsWidgetTokenHandlers,
  ];
}

/**
 * Everything the registry needs for payments: the API's operations and the control API's payment
 * actions (`paymentControlHandlers`), so both are served without another registry entry. Register
 * this once; do not add `paymentControlHandlers()` to the registry as well.
 */
export function paymentHandlers(jobs: JobKinds): [string, Handler][] {
  for (const [kind, runner] of [
    ...authorizationJobs,
    ...authorizationScheduleJobs,
    ...intentJobs,
    ...enrollmentJobs,
  ])
    jobs.define(kind, runner);
  return [...paymentApiHandlers(), ...paymentControlHandlers()];
}

/** The served payments objects back in the stored shapes: `ofkit replay` builds its snapshots with it. */
export { PAYMENT_COLLECTIONS, type StoredPayments, storedPayments } from './stored-payments.js';
export { paymentControlHandlers };
