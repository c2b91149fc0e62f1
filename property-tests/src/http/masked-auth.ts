/**
 * Credentials as the suite records them: never the secrets themselves (CLIENT-NO-SECRETS applies to
 * reports too). Known keys become shell variables a person sets before pasting a curl command.
 */

import { basicAuthorization } from '../../../openapi/config/api-keys.js';
import type { ApiKeyConfig, TargetConfig } from '../target/target-types.js';

/** How a recorded request authenticated, with every configured id and secret replaced by a variable. */
export type RecordedAuth =
  | { kind: 'none' }
  | { kind: 'basic'; user: string; password: string }
  | { kind: 'header'; value: string };

/** Which credentials a request carries: a configured key, none, or a raw Authorization header. */
export type Credentials = 'primary' | 'second' | 'otherEnvironment' | 'none' | { header: string };

/** The shell variables of each configured key (README: "Reproducing a failure"). */
export const KEY_VARIABLES = {
  primary: { user: '$OFKIT_KEY', password: '$OFKIT_SECRET' },
  second: { user: '$OFKIT_KEY_2', password: '$OFKIT_SECRET_2' },
  otherEnvironment: { user: '$OFKIT_OTHER_KEY', password: '$OFKIT_OTHER_SECRET' },
} as const;

type KeyName = keyof typeof KEY_VARIABLES;

function knownKeys(keys: TargetConfig['keys']): [KeyName, ApiKeyConfig][] {
  const entries: [KeyName, ApiKeyConfig | null][] = [
    ['primary', keys.primary],
    ['second', keys.second],
    ['otherEnvironment', keys.otherEnvironment],
  ];
  return entries.filter((entry): entry is [KeyName, ApiKeyConfig] => entry[1] !== null);
}

/** The Authorization header of a configured key. */
export function basicHeader(key: ApiKeyConfig): string {
  return basicAuthorization(key.id, key.secret);
}

function maskPart(part: string, keys: TargetConfig['keys'], field: 'id' | 'secret'): string {
  for (const [name, key] of knownKeys(keys)) {
    if (key[field] === part) return KEY_VARIABLES[name][field === 'id' ? 'user' : 'password'];
  }
  return part;
}

function mentionsSecret(text: string, keys: TargetConfig['keys']): boolean {
  return knownKeys(keys).some(([, key]) => text.includes(key.secret));
}

/** Records a raw Authorization header without any configured secret in it. */
function recordHeader(header: string, keys: TargetConfig['keys']): RecordedAuth {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : undefined;
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded !== undefined && colon > 0 && Buffer.from(decoded).toString('base64') === match?.[1]) {
    const user = maskPart(decoded.slice(0, colon), keys, 'id');
    const password = maskPart(decoded.slice(colon + 1), keys, 'secret');
    if (!mentionsSecret(`${user}:${password}`, keys)) return { kind: 'basic', user, password };
  }
  const unsafe = mentionsSecret(header, keys) || (decoded !== undefined && mentionsSecret(decoded, keys));
  return { kind: 'header', value: unsafe ? '<masked: made from a configured secret>' : header };
}

/** The header to send and the masked record of it. */
export function resolveCredentials(
  credentials: Credentials,
  keys: TargetConfig['keys'],
): { header: string | undefined; recorded: RecordedAuth } {
  if (credentials === 'none') return { header: undefined, recorded: { kind: 'none' } };
  if (typeof credentials === 'object') {
    return { header: credentials.header, recorded: recordHeader(credentials.header, keys) };
  }
  const key = keys[credentials];
  if (!key) throw new Error(`No ${credentials} key configured (the rule should have declared it needs one)`);
  return { header: basicHeader(key), recorded: { kind: 'basic', ...KEY_VARIABLES[credentials] } };
}
