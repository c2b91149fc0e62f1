/**
 * Stage 2, authenticate: AUTH-BASIC checks the credentials' value (Prism checks only their form) and
 * resolves the tenant from `secretId` (AUTH-TENANT: each key is its own account, whose state its
 * handlers reach through `tenant.store`); AUTH-ENV-KEYS refuses keys of the other environment.
 */
import { timingSafeEqual } from 'node:crypto';
import { parseBasic } from '../../../openapi/config/api-keys.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import type { RequestHead } from '../core/http-types.js';
import type { ApiKey, Environment, Tenant } from '../core/keys.js';
import { err, ok, type Result } from '../core/result.js';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Stage 2: the tenant of a request's credentials, or why there is none (from its head: no body needed). */
export type Authenticator = (request: RequestHead) => Result<Tenant, ApiErrors>;

export function createAuthenticator(keys: readonly ApiKey[], environment: Environment): Authenticator {
  const byId = new Map(keys.map((key) => [key.secretId, key]));
  return (request) => {
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) {
      return err(
        apiError('authentication_failed', {
          message: 'Send Authorization: Basic base64(secretId:secretPassword).',
        }),
      );
    }
    const key = byId.get(credentials.id);
    if (!key || !sameSecret(key.secretPassword, credentials.password))
      return err(apiError('authentication_failed'));
    if (key.environment !== environment) {
      // AUTH-ENV-KEYS: a key of one environment is refused by the other.
      return err(
        apiError('authentication_failed', {
          message: `These are ${key.environment} keys; this is ${environment}.`,
        }),
      );
    }
    return ok({ id: key.secretId, environment });
  };
}
