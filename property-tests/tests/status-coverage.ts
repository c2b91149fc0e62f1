/**
 * The documented statuses a fresh simulator exhibits, production and sandbox counted together: all of
 * them. Production shows everything but PAY-SANDBOX's 403 (payment initiation refused in the sandbox);
 * the sandbox shows those 403s.
 */
import type { SuiteResult } from '../src/runner/run-suite.js';

/** `operationId:status` the sandbox alone exhibits (PAY-SANDBOX: 403 `payment_initiation_unavailable`). */
export const SANDBOX_ONLY = [
  'createEnrollment:403',
  'createPaymentAuthorization:403',
  'retryPaymentAuthorizationCharge:403',
  'createPaymentIntent:403',
];

/** `operationId:status` of every documented status the run never exhibited with a valid body. */
export function unexhibited(suite: SuiteResult): string[] {
  return suite.coverage.perOperation.flatMap((op) =>
    op.missing.map((status) => `${op.operationId}:${status}`),
  );
}

/** `operationId:status` of every documented status the run exhibited with a valid body. */
export function exhibited(suite: SuiteResult): string[] {
  return suite.coverage.perOperation.flatMap((op) =>
    Object.keys(op.exhibited).map((status) => `${op.operationId}:${status}`),
  );
}
