/**
 * `--store` URLs of the Redis store, read without loading node-redis (the CLI checks `--store` before it
 * decides to load the Redis store):
 *
 *   redis://[USER:PASSWORD@]HOST:PORT[/DB][?OPTIONS]                one Redis (rediss:// with TLS)
 *   redis+cluster://[USER:PASSWORD@]HOST:PORT[,HOST:PORT...][?OPTIONS]   a Redis Cluster (its seed nodes;
 *                                                                  rediss+cluster:// with TLS)
 *
 * TLS verifies the server's certificate against Node's trusted CAs; a private CA is added with
 * `NODE_EXTRA_CA_CERTS=ca.pem`, as for any Node program.
 *
 * OPTIONS (milliseconds): connect_timeout_ms, command_timeout_ms, job_lease_ms.
 */

import { printableUrl } from '../../../openapi/security/masked-values.js';

/** The store's time bounds (README, "Running several replicas"). */
export interface RedisTimeouts {
  /** Connecting (and the first answer) at start; past it `ofkit simulate` exits 2. */
  connectTimeoutMs: number;
  /** One command; past it the request answers `store_effect_unknown`. */
  commandTimeoutMs: number;
  /** How long a replica holds a job it runs before another may take it over (renewed while it runs). */
  jobLeaseMs: number;
}

export const DEFAULT_REDIS_TIMEOUTS: RedisTimeouts = Object.freeze({
  connectTimeoutMs: 5_000,
  // Above the longest single script a large tenant runs (exporting a million records takes seconds).
  commandTimeoutMs: 10_000,
  jobLeaseMs: 30_000,
});

const OPTION_NAMES: Record<string, keyof RedisTimeouts> = {
  connect_timeout_ms: 'connectTimeoutMs',
  command_timeout_ms: 'commandTimeoutMs',
  job_lease_ms: 'jobLeaseMs',
};

const SINGLE = 'redis://HOST:PORT/DB';
const CLUSTER = 'redis+cluster://HOST:PORT,HOST:PORT';
const CLUSTER_SCHEMES = new Set(['redis+cluster', 'rediss+cluster']);

/** A store URL understood: one server's URL (for node-redis) or a cluster's seed nodes, and the bounds. */
export interface RedisTarget {
  topology: 'single' | 'cluster';
  /** node-redis URLs: the one server, or each seed node of the cluster. */
  nodes: string[];
  timeouts: RedisTimeouts;
  /** `rediss://`, `rediss+cluster://`: every connection (a cluster's discovered nodes too) uses TLS. */
  tls: boolean;
  /** A cluster's credentials, for the nodes it discovers (the seed nodes carry them in their URLs). */
  username?: string;
  password?: string;
}

export class RedisUrlProblem extends Error {
  override name = 'RedisUrlProblem';
}

/** The URL as it may be printed: its password masked whatever it holds (`@`, `/`, `:`). */
export { printableUrl };

function parseOptions(query: string, url: string): RedisTimeouts {
  const timeouts = { ...DEFAULT_REDIS_TIMEOUTS };
  for (const [name, value] of new URLSearchParams(query)) {
    const key = OPTION_NAMES[name];
    if (key === undefined)
      throw new RedisUrlProblem(
        `"${printableUrl(url)}": unknown option ${name} (known: ${Object.keys(OPTION_NAMES).join(', ')})`,
      );
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new RedisUrlProblem(`"${printableUrl(url)}": ${name} must be a whole number of milliseconds`);
    timeouts[key] = Number(value);
  }
  return timeouts;
}

function singleTarget(url: string): RedisTarget {
  const [base = '', query = ''] = url.split('?', 2);
  if (!URL.canParse(base)) throw new RedisUrlProblem(`"${printableUrl(url)}" is not a URL (want ${SINGLE})`);
  const { hostname, pathname } = new URL(base);
  if (hostname === '') throw new RedisUrlProblem(`"${printableUrl(url)}" names no host (want ${SINGLE})`);
  if (!/^\/?(\d+)?$/.test(pathname))
    throw new RedisUrlProblem(`"${printableUrl(url)}": the path must be a database number, e.g. /0`);
  const tls = base.toLowerCase().startsWith('rediss:');
  return { topology: 'single', nodes: [base], timeouts: parseOptions(query, url), tls };
}

/** `user:password@` (percent-encoded, as URLs carry them), decoded. */
function credentialsOf(userInfo: string): { username?: string; password?: string } {
  if (userInfo === '') return {};
  const colon = userInfo.indexOf(':');
  const decode = (text: string) => (text === '' ? undefined : decodeURIComponent(text));
  const username = decode(colon < 0 ? '' : userInfo.slice(0, colon));
  const password = decode(colon < 0 ? userInfo : userInfo.slice(colon + 1));
  return { ...(username && { username }), ...(password && { password }) };
}

function clusterTarget(url: string, scheme: string): RedisTarget {
  const rest = url.slice(scheme.length + 3);
  const [authority = '', query = ''] = rest.split('?', 2);
  const at = authority.lastIndexOf('@');
  const credentials = at === -1 ? '' : authority.slice(0, at + 1);
  const hosts = authority
    .slice(at + 1)
    .replace(/\/$/, '')
    .split(',');
  if (hosts.some((host) => !/^[^\s/:,]+:\d+$/.test(host)))
    throw new RedisUrlProblem(
      `"${printableUrl(url)}": list the cluster's nodes as HOST:PORT,HOST:PORT (want ${CLUSTER}; a cluster has no database number)`,
    );
  const tls = scheme === 'rediss+cluster';
  return {
    topology: 'cluster',
    // TLS when the cluster's scheme says so: the seed nodes were built as plain redis:// before.
    nodes: hosts.map((host) => `${tls ? 'rediss' : 'redis'}://${credentials}${host}`),
    timeouts: parseOptions(query, url),
    tls,
    ...credentialsOf(credentials.slice(0, -1)),
  };
}

/** Reads a store URL; throws RedisUrlProblem (one line, without the password) when it is not one. */
export function parseRedisUrl(url: string): RedisTarget {
  const scheme = /^([a-z+]+):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && CLUSTER_SCHEMES.has(scheme)) return clusterTarget(url, scheme);
  if (scheme === 'redis' || scheme === 'rediss') return singleTarget(url);
  if (scheme === undefined && !URL.canParse(url))
    throw new RedisUrlProblem(`"${url}" is not a URL (want ${SINGLE} or ${CLUSTER})`);
  throw new RedisUrlProblem(`"${printableUrl(url)}" is not a redis:// URL (want ${SINGLE} or ${CLUSTER})`);
}

/** Undefined for a usable store URL, else why it is not one. */
export function redisUrlProblem(url: string): string | undefined {
  try {
    parseRedisUrl(url);
    return undefined;
  } catch (error) {
    if (error instanceof RedisUrlProblem) return error.message;
    throw error;
  }
}

/** Loopback hosts: a Redis there is this machine's (its traffic never leaves it). */
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/**
 * What a start should warn of in a store URL: beyond loopback, Redis holds every tenant's state and the
 * link passwords a snapshot needs, so it wants a password (an ACL user) and TLS.
 */
export function redisUrlWarnings(url: string): string[] {
  const target = parseRedisUrl(url);
  const remote = target.nodes.some((node) => !LOOPBACK_HOST.test(new URL(node).hostname));
  if (!remote) return [];
  const warnings: string[] = [];
  const password = target.password ?? new URL(target.nodes[0]!).password;
  if (!password)
    warnings.push(
      `--store ${printableUrl(url)} is beyond loopback without a password: anyone who reaches it reads every tenant's state (use an ACL user: redis://USER:PASSWORD@...)`,
    );
  if (!target.tls)
    warnings.push(
      `--store ${printableUrl(url)} is beyond loopback without TLS: state and link passwords cross the network in clear (use rediss:// or rediss+cluster://)`,
    );
  return warnings;
}
