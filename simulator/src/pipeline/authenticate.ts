/**
 * Stage 2, authenticate: AUTH-BASIC checks the credentials' value (Prism checks only their form) and
 * resolves the tenant from `secretId`; AUTH-ENV-KEYS refuses keys of the other environment.
 */
import { timingSafeEqual } from 'node:crypto';
import type { BrokenRules } from '../broken-rules/breakable-rules.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { err, ok, type Result } from '../core/result.js';

export type Environment = 'sandbox' | 'production';

export interface ApiKey {
  secretId: string;
  secretPassword: string;
  environment: Environment;
}

export interface Tenant {
  /** The tenant is the API key id. */
  id: string;
  environment: Environment;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The id and password of a `Basic` Authorization header; undefined when it is not one. */
export function parseBasic(header: string | undefined): { id: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
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
