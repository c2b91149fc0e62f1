/** What the payment handlers share: the resource version (PAY-VERSION-HEADER) and PAY-SANDBOX. */

import { type ApiErrors, apiError, type ErrorCode } from '../core/api-error.js';
import type { ValidInput } from '../core/handler.js';
import { err, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';

export const RESOURCE_VERSION_HEADER = 'x-service-api-resource-version';
export const V2 = 'Payments-BR.V2';

export type ResourceVersion = 'V1' | 'V2';

/** PAY-VERSION-HEADER: `Payments-BR.V2` selects V2; without the header V1 applies. */
export const versionOf = (input: ValidInput): ResourceVersion =>
  input.headers[RESOURCE_VERSION_HEADER] === V2 ? 'V2' : 'V1';

/**
 * PAY-SANDBOX: payment initiation (creating intents, authorizations and enrollments, retrying
 * charges) answers 403 `payment_initiation_unavailable` in the sandbox (choice); reading still works.
 */
export function refuseInSandbox(tenant: TenantRuntime): Result<never, ApiErrors> | undefined {
  if (tenant.environment !== 'sandbox' || tenant.policy.payments.initiationInSandbox) return undefined;
  return err(apiError('payment_initiation_unavailable'));
}

/** A one-item error with its field. */
export const failure = (code: ErrorCode, field: string | undefined, message: string) =>
  err(apiError(code, { message, ...(field !== undefined && { field }) }));

export type Body = Record<string, unknown>;

/**
 * PAY-VERSION-HEADER (choice): a body of the other version than the header selects gets 400 naming the
 * member whose shape differs (`field`).
 */
export function versionMismatch(
  sent: ResourceVersion,
  selected: ResourceVersion,
  field: string,
): Result<never, ApiErrors> | undefined {
  if (sent === selected) return undefined;
  const message =
    sent === 'V2'
      ? `This is a V2 body: send it with X-Service-API-Resource-Version: ${V2}, or send the V1 body.`
      : `The header selects ${V2} but this is a V1 body: send \`${field}\` in the V2 format.`;
  return failure('invalid', field, message);
}
