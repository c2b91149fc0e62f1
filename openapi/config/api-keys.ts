/**
 * API keys as users write them and as the API carries them (AUTH-BASIC): `id:secret` on a command line
 * (`--keys`), `Authorization: Basic base64(id:secret)` on a request. The one parser of both, for the
 * simulator, the suite and the Pact commands.
 */
import { ConfigError } from './config-error.js';

export interface KeyPair {
  secretId: string;
  secretPassword: string;
}

/** `id:secret` (the secret keeps any further colon); `flag` names where it came from in the error. */
export function parseKeyPair(text: string, flag = '--keys'): KeyPair {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1)
    throw new ConfigError(`${flag} wants id:secret, got "${text}"`);
  return { secretId: text.slice(0, colon), secretPassword: text.slice(colon + 1) };
}

/** The id and password of a `Basic` Authorization header; undefined when it is not one. */
export function parseBasic(header: string | undefined): { id: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** `Basic base64(id:secret)`. */
export const basicAuthorization = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
