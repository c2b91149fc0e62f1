/**
 * Address ranges as users write them (`--webhook-allow 10.20.0.0/16`): read once, by the command line
 * and by the webhook destinations' check alike.
 */
import { isIP } from 'node:net';

/** `10.0.0.0/8`, `fd00::/8` -> a subnet; undefined for a host name. */
export function parseCidr(text: string): [string, number, 'ipv4' | 'ipv6'] | undefined {
  const [address = '', bits] = text.split('/');
  const family = isIP(address);
  if (family === 0 || bits === undefined || !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = Number(bits);
  if (prefix > (family === 4 ? 32 : 128)) return undefined;
  return [address, prefix, family === 4 ? 'ipv4' : 'ipv6'];
}
