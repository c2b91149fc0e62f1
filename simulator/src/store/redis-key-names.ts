/** The Redis store's key names on the TypeScript side; the layout is documented in redis-lua-prelude.ts. */

/**
 * Names inside a key are URI-encoded: a tenant, collection, link or window key with `:`, `{` or `}`
 * could otherwise collide with another name or break the tenant's hash tag.
 */
export const keyPart = encodeURIComponent;

/** `<prefix>{<tenant>}:`, the start of every key of the tenant. */
export function tenantBase(prefix: string, tenant: string): string {
  return `${prefix}{${keyPart(tenant)}}:`;
}

/** The start of every key of one generation of the tenant's snapshot state. */
export function generationBase(base: string, generation: string | number): string {
  return `${base}g${generation}:`;
}

/** The keys of one collection of a generation (`name` already encoded). */
export function collectionKeys(generation: string, name: string) {
  const start = `${generation}c:${name}:`;
  return {
    records: `${start}rec`,
    order: `${start}ord`,
    links: `${start}lnk`,
    byLink: (link: string) => `${start}by:${link}`,
  };
}

/** A job's member in the due ZSET: jobs due at one instant sort by `order` (zero-padded), then id. */
export function jobMember(order: number, id: string): string {
  return `${String(order).padStart(16, '0')}:${id}`;
}
