/** The Brazilian payment rules broken the way real servers get them wrong (PAY-*). */
import { apiError } from '../core/api-error.js';
import type { CancelCutoff, RulePolicy } from '../core/rule-policy.js';
import {
  ignoreHeader,
  ignoreQuery,
  type RuleBreaks,
  rewriteEvents,
  wrapHandlers,
  wrapValidators,
} from './edges.js';

const payments = (policy: RulePolicy, change: Partial<RulePolicy['payments']>): RulePolicy => ({
  ...policy,
  payments: { ...policy.payments, ...change },
});

/** The cutoffs with those of `operationIds` changed by `change` (undefined: no cutoff). */
function cutoffs(
  policy: RulePolicy,
  operationIds: readonly string[],
  change: (cutoff: CancelCutoff) => CancelCutoff | undefined,
): RulePolicy {
  const changed: Record<string, CancelCutoff> = {};
  for (const [id, cutoff] of Object.entries(policy.payments.cancelCutoffs)) {
    const next = operationIds.includes(id) ? change(cutoff) : cutoff;
    if (next) changed[id] = next;
  }
  return payments(policy, { cancelCutoffs: changed });
}

/** The cutoff computed in the machine's time zone (UTC), not GMT-3. */
const inUtc = (cutoff: CancelCutoff): CancelCutoff => ({ ...cutoff, utcOffset: '+00:00' });

export const PAYMENT_BREAKS = {
  'PAY-VERSION-HEADER': {
    description: 'the detail read ignores the version header: customers and accounts always in V1',
    edges: (edges) =>
      ignoreHeader(edges, ['getCustomer', 'getBankAccount'], 'x-service-api-resource-version'),
  },
  'PAY-AUTH-V2-REQUIRED': {
    description: 'payment authorizations accepted without the V2 header (V2 assumed)',
    edges: (edges) =>
      wrapValidators(edges, (validate, operation) => {
        if (!operation.path.startsWith('/payments/br/payment-authorizations/')) return validate;
        return (request, pathParams) => {
          const headers = { 'x-service-api-resource-version': 'Payments-BR.V2', ...request.headers };
          return validate({ ...request, headers }, pathParams);
        };
      }),
  },
  'PAY-AUTH-AUTHORIZED': {
    description: 'the authorization becomes AUTHORIZED but its status event is never sent',
    edges: (edges) =>
      rewriteEvents(edges, (event) =>
        event.webhook_type === 'PAYMENT_AUTHORIZATION' &&
        event.webhook_code === 'status' &&
        event.data.status === 'AUTHORIZED'
          ? undefined
          : event,
      ),
  },
  'PAY-AUTH-CANCEL-CUTOFF': {
    description: "the authorization's cancel cutoff computed in UTC, not GMT-3",
    policy: (policy) => cutoffs(policy, ['cancelPaymentAuthorization'], inUtc),
  },
  'PAY-AUTH-CHARGE-CANCEL-CUTOFF': {
    description: "a charge's cancel cutoff computed in UTC, not GMT-3",
    policy: (policy) => cutoffs(policy, ['cancelPaymentAuthorizationCharge'], inUtc),
  },
  'PAY-CHARGE-RETRY': {
    description: 'retry accepted on any charge, not only a failed one',
    policy: (policy) => payments(policy, { retryOnlyFailed: false }),
  },
  'PAY-INTENT-CONFIGS': {
    description: 'a payer created in the request is refused (only registered payers work)',
    edges: (edges) =>
      wrapHandlers(edges, ['createPaymentIntent'], (handler) => async (context) => {
        const body = (context.input.body ?? {}) as Record<string, unknown>;
        if (typeof body.customer !== 'object' || body.customer === null) return handler(context);
        const message = 'Register the payer first and send its id.';
        return { ok: false, error: apiError('invalid', { field: 'customer', message }) };
      }),
  },
  'PAY-INTENT-PIX-PATCH': {
    description: 'a completed Pix intent can be completed again',
    policy: (policy) => payments(policy, { intentCompletesOnce: false }),
  },
  'PAY-INTENT-CANCEL-CUTOFF': {
    description: 'no cancel cutoff for payment intents',
    policy: (policy) =>
      cutoffs(policy, ['cancelPaymentIntent', 'cancelPaymentIntentCharge'], () => undefined),
  },
  'PAY-BANK-ACCOUNT-DUP': {
    description: 'deactivated bank accounts still count in the duplicate check',
    policy: (policy) => payments(policy, { duplicatesIgnoreInactive: false }),
  },
  'PAY-ENROLLMENT': {
    description: 'the enrollment list ignores its `status` filter',
    edges: (edges) => ignoreQuery(edges, ['listEnrollments'], 'status'),
  },
  'PAY-SANDBOX': {
    description: 'payment initiation left open in the sandbox',
    policy: (policy) => payments(policy, { initiationInSandbox: true }),
  },
} satisfies Record<string, RuleBreaks>;
