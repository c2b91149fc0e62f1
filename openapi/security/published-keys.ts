/**
 * The simulator's published default keys: two production tenants and one sandbox key (AUTH-ENV-KEYS),
 * printed in the README and known to everyone. Only these are ever handed out (the dashboard's key
 * picker, a start-up banner, an `export` line); a simulator listening beyond loopback refuses to serve
 * them unless told to (`--allow-default-keys`): whoever reaches it would be a tenant.
 */
export interface PublishedKey {
  readonly secretId: string;
  readonly secretPassword: string;
  readonly environment: 'production' | 'sandbox';
}

export const PUBLISHED_KEYS: readonly PublishedKey[] = Object.freeze([
  { secretId: 'ofkit-key-a', secretPassword: 'ofkit-secret-a', environment: 'production' },
  { secretId: 'ofkit-key-b', secretPassword: 'ofkit-secret-b', environment: 'production' },
  { secretId: 'ofkit-sandbox-key', secretPassword: 'ofkit-sandbox-secret', environment: 'sandbox' },
]);

/** True for a published key (its id and its secret): printing it gives nothing away. */
export function isPublishedKey(key: { secretId: string; secretPassword: string }): boolean {
  return PUBLISHED_KEYS.some(
    (known) => known.secretId === key.secretId && known.secretPassword === key.secretPassword,
  );
}

/** `id:secret` when the key is published, else `id:***` (a banner, a log line). */
export function printableKey(key: { secretId: string; secretPassword: string }): string {
  return `${key.secretId}:${isPublishedKey(key) ? key.secretPassword : '***'}`;
}
