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
