/**
 * The documented statuses a fresh simulator exhibits, production and sandbox counted together: all of
 * them but those it never answers. Production shows everything but PAY-SANDBOX's 403 (payment initiation
 * refused in the sandbox); the sandbox shows those 403s.
 */
import type { SuiteResult } from '../src/runner/run-suite.js';

/** `operationId:status` the sandbox alone exhibits (PAY-SANDBOX: 403 `payment_initiation_unavailable`). */
export const SANDBOX_ONLY = [
  'createEnrollment:403',
  'createPaymentAuthorization:403',
  'retryPaymentAuthorizationCharge:403',
  'createPaymentIntent:403',
];

/**
 * Documented statuses the simulator never answers (to exhibit them it has to answer them, or the
 * document has to drop them): a resume the institution asks another token for (428), PUT credentials
 * at an institution that asks for a token (428), and a resume naming a link or session the
 * simulator no longer has answers 400 `session_expired` before it can answer 404.
 */
export const SIMULATOR_NEVER_ANSWERS = [
  'resumeAccountsRetrieval:404',
  'resumeAccountsRetrieval:428',
  'resumeInvoicesRetrieval:404',
  'resumeInvoicesRetrieval:428',
  'resumeOwnersRetrieval:404',
  'resumeOwnersRetrieval:428',
  'resumeTransactionsRetrieval:404',
  'resumeTransactionsRetrieval:428',
  'resumeLinkRegistration:428',
  'updateLinkCredentials:428',
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
