/**
 * The `Host` check of every route of ofkit's servers (the simulator's API, control API and dashboard;
 * the recording proxy of `ofkit record` and `ofkit proxy`), against DNS rebinding: a
 * page of another site whose name is made to resolve to this machine reaches the simulator with that
 * name in `Host`, so a name nobody configured is refused. Accepted without configuration: `localhost`,
 * `*.localhost` and any IP literal (an address cannot be rebound), any port, any case; then each
 * `--allowed-host NAME` (a leading `.` accepts the name and its subdomains) and the host of
 * `--public-url`. `all` turns the check off. Worked out once at start-up; a request costs one lookup.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { ConfigError } from '../config/config-error.js';

export interface HostRules {
  /** Names (`sim.internal`), suffixes (`.staging.example`), or `all`. */
  allowedHosts?: readonly string[];
  /** The URL clients reach the simulator at (a reverse proxy's): its host is accepted. */
  publicUrl?: string;
}

/** `--allowed-host all`: the check is off. */
export const ALL_HOSTS = 'all';

/** The host name of a `Host` value: without the port, lower-case, without a final dot. */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const colon = host.lastIndexOf(':');
  const name = (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

const isAddress = (name: string) =>
  isIPv4(name) || (name.startsWith('[') && name.endsWith(']') && isIPv6(name.slice(1, -1)));

const isLocalhost = (name: string) => name === 'localhost' || name.endsWith('.localhost');

/** How many distinct `Host` values the check remembers (a client uses one or two). */
const REMEMBERED = 256;

/** True when the check is off (`all`): the caller warns. */
export const hostCheckOff = (rules: HostRules) => rules.allowedHosts?.includes(ALL_HOSTS) === true;

/** A `Host` value (as the request sent it) -> whether this simulator answers for it. */
export function createHostCheck(rules: HostRules): (host: string) => boolean {
  if (hostCheckOff(rules)) return () => true;
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const allowed of rules.allowedHosts ?? []) {
    const name = hostName(allowed);
    if (name.startsWith('.')) {
      suffixes.push(name);
      exact.add(name.slice(1));
    } else exact.add(name);
  }
  if (rules.publicUrl !== undefined) exact.add(hostName(new URL(rules.publicUrl).host));
  const allowed = (name: string) =>
    isLocalhost(name) || isAddress(name) || exact.has(name) || suffixes.some((s) => name.endsWith(s));
  const seen = new Map<string, boolean>();
  return (host) => {
    let answer = seen.get(host);
    if (answer === undefined) {
      answer = allowed(hostName(host));
      if (seen.size < REMEMBERED) seen.set(host, answer);
    }
    return answer;
  };
}

/** Whether `host` (an interface to listen on) is loopback: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackInterface(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name;
  return isIPv4(v4) && v4.startsWith('127.');
}

/** `--allowed-host NAME`: a host name (a leading `.` for a domain and its subdomains) or `all`. */
export function parseAllowedHost(text: string): string {
  if (!/^\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?$/.test(text))
    throw new ConfigError(
      `--allowed-host wants a host name (sim.internal, .example.com) or all, got "${text}"`,
    );
  return text.toLowerCase();
}

/** `--public-url URL`: an http(s) URL, without query or fragment. */
export function parsePublicUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search ||
    url.hash ||
    url.username
  )
    throw new ConfigError(`--public-url wants an http(s) URL without query or credentials, got "${text}"`);
  return text.replace(/\/+$/, '');
}
