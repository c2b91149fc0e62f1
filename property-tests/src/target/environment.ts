/**
 * The target's environment and what the interface spec documents as unavailable in it. The sandbox
 * offers aggregation with dummy data, but payment initiation is "marked as not available" there
 * (interface spec, Environments; PAY-SANDBOX), and employment metrics are "not for ... the sandbox
 * institution" (conventions table; EMPLOYMENT-METRICS-PREREQ). An operation that can only act on what
 * those create can never answer a success status in the sandbox: its row is `skipped (environment)`.
 */

import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { isObject } from '../../../openapi/document/json.js';
import type { HttpClient } from '../http/http-client.js';
import type { Environment } from './target-types.js';

const PAYMENT_INITIATION =
  'payment initiation is not available in the sandbox (interface spec, Environments; PAY-SANDBOX)';
const EMPLOYMENT_METRICS =
  'employment metrics are not available for the sandbox institution (interface spec, conventions table; EMPLOYMENT-METRICS-PREREQ)';

/**
 * Collections whose records only payment initiation creates (intents, authorizations, enrollments, and
 * the charges and inflow transactions of payments), and the employment metrics. Their lists still
 * answer (empty) in the sandbox; creating, reading one record or acting on one cannot succeed there.
 */
const SANDBOX_UNAVAILABLE: readonly [string, string][] = [
  ['/payments/br/payment-intents/', PAYMENT_INITIATION],
  ['/payments/br/payment-authorizations/', PAYMENT_INITIATION],
  ['/payments/br/enrollments/', PAYMENT_INITIATION],
  ['/payments/br/charges/', PAYMENT_INITIATION],
  ['/payments/br/transactions/', PAYMENT_INITIATION],
  ['/api/employment-metrics/', EMPLOYMENT_METRICS],
];

type Operations = Pick<ApiDocument, 'operations'>['operations'];

/**
 * The sandbox's operations on the collections above (operationId -> the reason), the collections' own
 * lists (`list: true`) apart from everything else on them.
 */
function sandboxOperations(operations: Operations, list: boolean): Map<string, string> {
  const found = new Map<string, string>();
  for (const operation of operations) {
    const entry = SANDBOX_UNAVAILABLE.find(([collection]) => operation.path.startsWith(collection));
    if (!entry) continue;
    const isList = operation.method === 'GET' && operation.path === entry[0];
    if (isList === list) found.set(operation.operationId, entry[1]);
  }
  return found;
}

/** The operations unavailable in `environment` (operationId -> the reason, citing the spec). */
export function unavailableOperations(
  document: Pick<ApiDocument, 'operations'>,
  environment: Environment,
): Map<string, string> {
  return environment === 'sandbox' ? sandboxOperations(document.operations, false) : new Map();
}

/**
 * The lists that stay empty in `environment` (operationId -> the reason): the collections above still
 * answer their list there, and nothing can fill it, so no answer can show their records' shape.
 */
export function emptyListsIn(
  document: Pick<ApiDocument, 'operations'>,
  environment: Environment,
): Map<string, string> {
  return environment === 'sandbox' ? sandboxOperations(document.operations, true) : new Map();
}

export interface DetectedEnvironment {
  environment: Environment;
  /** How it was decided, for the report's capabilities line. */
  note: string;
}

/**
 * The configured environment, or the one GET /api/ names (API-ROOT: `environment` of the API root);
 * production when the target names none.
 */
export async function detectEnvironment(
  client: HttpClient,
  configured: Environment | null,
): Promise<DetectedEnvironment> {
  if (configured !== null) return { environment: configured, note: `${configured} (as configured)` };
  try {
    const answer = await client.session().request({ method: 'GET', url: '/api/' });
    const named = isObject(answer.json) ? answer.json.environment : undefined;
    if (named === 'production' || named === 'sandbox')
      return { environment: named, note: `${named} (GET /api/ says so)` };
    return {
      environment: 'production',
      note: 'production assumed: GET /api/ named no environment (--environment sandbox to say otherwise)',
    };
  } catch (error) {
    return {
      environment: 'production',
      note: `production assumed: GET /api/ failed (${(error as Error).message})`,
    };
  }
}
