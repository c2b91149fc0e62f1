/**
 * Stage 2, authenticate: AUTH-BASIC checks the credentials' value (Prism checks only their form) and
 * resolves the tenant from `secretId`; AUTH-ENV-KEYS refuses keys of the other environment.
 */
import { timingSafeEqual } from 'node:crypto';
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { type ApiKey, type Environment, parseBasic, type Tenant } from '../core/keys.js';
import { err, ok, type Result } from '../core/result.js';

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export type Authenticator = (authorization: string | undefined) => Result<Tenant, ApiErrors>;

export function createAuthenticator(
  keys: readonly ApiKey[],
  environment: Environment,
  broken: BrokenRules = new Set(),
): Authenticator {
  const byId = new Map(keys.map((key) => [key.secretId, key]));
  // brokenRules AUTH-BASIC: the key id looked up, its secret never compared.
  const secretOk = (key: ApiKey, password: string) =>
    broken.has('AUTH-BASIC') || sameSecret(key.secretPassword, password);
  return (authorization) => {
    const credentials = parseBasic(authorization);
    if (!credentials) {
      return err(
        apiError('authentication_failed', {
          message: 'Send Authorization: Basic base64(secretId:secretPassword).',
        }),
      );
    }
    const key = byId.get(credentials.id);
    if (!key || !secretOk(key, credentials.password)) return err(apiError('authentication_failed'));
    // brokenRules AUTH-ENV-KEYS: one key table for both environments.
    if (key.environment !== environment && !broken.has('AUTH-ENV-KEYS')) {
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
