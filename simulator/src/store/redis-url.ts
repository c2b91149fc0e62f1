/**
 * `redis://HOST:PORT/DB` URLs, checked without loading node-redis (the CLI checks `--store` before it
 * decides to load the Redis store).
 */

/** The URL as it may be printed: without its password. */
export function printableUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** Undefined for a usable `redis://HOST:PORT/DB` (or rediss://) URL, else why it is not one. */
export function redisUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return `"${url}" is not a URL (want redis://HOST:PORT/DB)`;
  const { protocol, hostname, pathname } = new URL(url);
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    return `"${printableUrl(url)}" is not a redis:// URL (want redis://HOST:PORT/DB)`;
  if (hostname === '') return `"${printableUrl(url)}" names no host (want redis://HOST:PORT/DB)`;
  if (!/^\/?(\d+)?$/.test(pathname))
    return `"${printableUrl(url)}": the path must be a database number, e.g. /0`;
  return undefined;
}
