/**
 * Where webhooks may go. A simulator listening on loopback delivers anywhere it is told (a developer's
 * receiver on the same machine); one listening on any other interface, shared by several teams, refuses
 * a destination in loopback, link-local (169.254.0.0/16 included), private or unique-local addresses
 * (or the unspecified one, which is this machine) unless `--webhook-allow HOST|CIDR` names it: a tenant
 * must not make it call the internal network, with its bearer token, and read the answers as a port
 * scan. The address checked is the one connected to: names are resolved once, by the connection's own
 * lookup, which hands it only allowed addresses; the TLS name stays the URL's host.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { parseCidr } from '../../../openapi/security/address-ranges.js';

export interface DestinationRules {
  /** False for a simulator listening on loopback: it delivers anywhere. */
  restricted: boolean;
  /** `--webhook-allow` entries: a host name (a leading `.` for a domain and its subdomains) or a CIDR. */
  allow: readonly string[];
}

export const ANYWHERE: DestinationRules = Object.freeze({ restricted: false, allow: [] });

/** Why a destination is refused: the flag that allows it, said once for every refusal. */
export const REFUSAL =
  'refused: the destination is a loopback, link-local, private or unique-local address, which a simulator listening beyond loopback does not call; start it with --webhook-allow HOST|CIDR to allow it';

/** The code of the connection error a refused lookup gives (delivery.ts tells it from a failure). */
export const REFUSED_CODE = 'EOFKIT_DESTINATION_REFUSED';

const INTERNAL: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
];

function blockList(entries: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): BlockList {
  const list = new BlockList();
  for (const [address, prefix, family] of entries) list.addSubnet(address, prefix, family);
  return list;
}

const internal = blockList(INTERNAL);

/** The IPv4 address an IPv4-mapped IPv6 one carries (`::ffff:10.0.0.1`), else the address. */
const unmapped = (address: string) => (/^::ffff:[\d.]+$/i.test(address) ? address.slice(7) : address);

export interface DestinationCheck {
  readonly restricted: boolean;
  /** Whether a connection to `address` (for the URL host `hostname`) may be made. */
  allows(hostname: string, address: string): boolean;
  /** The connection's lookup: resolves once and hands on the allowed addresses only. */
  lookup: LookupFunction;
  /** At configuration time: the refusal of a URL, resolving its name; undefined when it may be used. */
  refusalOf(url: string): Promise<string | undefined>;
}

export function createDestinationCheck(rules: DestinationRules): DestinationCheck {
  const names = rules.allow.filter((entry) => parseCidr(entry) === undefined).map((n) => n.toLowerCase());
  const subnets = rules.allow.map(parseCidr).filter((subnet) => subnet !== undefined);
  const allowed = blockList(subnets);
  const named = (hostname: string) => {
    const host = hostname.toLowerCase();
    return names.some((name) =>
      name.startsWith('.') ? host.endsWith(name) || host === name.slice(1) : host === name,
    );
  };
  const allows = (hostname: string, address: string) => {
    if (!rules.restricted || named(hostname)) return true;
    const plain = unmapped(address);
    const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    return !internal.check(plain, family) || allowed.check(plain, family);
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = found.filter((entry) => allows(hostname, entry.address));
      if (usable.length === 0) {
        const refused = Object.assign(new Error(REFUSAL), { code: REFUSED_CODE });
        return callback(refused, '', 0);
      }
      // net asks for every address when it tries them in turn (autoSelectFamily), else for one.
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
  const refusalOf = async (url: string) => {
    if (!rules.restricted) return undefined;
    const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(hostname) !== 0) return allows(hostname, hostname) ? undefined : REFUSAL;
    const found = await new Promise<LookupAddress[]>((resolve) =>
      dnsLookup(hostname, { all: true }, (error, addresses) => resolve(error ? [] : addresses)),
    );
    // A name that does not resolve now may later: the delivery checks it again.
    return found.length > 0 && found.every((entry) => !allows(hostname, entry.address)) ? REFUSAL : undefined;
  };
  return { restricted: rules.restricted, allows, lookup, refusalOf };
}
