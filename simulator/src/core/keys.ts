/** API keys and tenants: a tenant is one API key id, of one environment (AUTH-BASIC, AUTH-ENV-KEYS). */
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

/** The id and password of a `Basic` Authorization header; undefined when it is not one. */
export function parseBasic(header: string | undefined): { id: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
