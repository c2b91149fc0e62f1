/**
 * The one list of credential names (CLIENT-NO-SECRETS): the member, form field, query parameter and
 * header names whose values are secrets. The request log, the judge's evidence, the dashboard's data,
 * the console and the bridge's redaction all ask here, so a name masked in one output is masked in
 * every other.
 *
 * A name is compared after lower-casing it and dropping `_`, `-` and trailing digits, so `api_key`,
 * `X-Api-Key`, `apiKey` and the document's `password2` read as `apikey` and `password`. The MFA
 * `session` and the `link` are not credentials: the judge follows an MFA resume by them.
 */

/** Names that are credentials exactly (after normalising). */
const EXACT = new Set([
  'password',
  'passwd',
  'passcode',
  'pin',
  'otp',
  'token',
  'secret',
  'apikey',
  'authorization',
  'privatekey',
  'certificate',
  'credentials',
  // The widget's access and refresh tokens (answers the bridge records).
  'access',
  'refresh',
]);

/** Endings that make a name a credential (`bearer_token`, `client_secret`, `new_password`, `x-api-key`). */
const ENDINGS = ['password', 'secret', 'token', 'apikey'] as const;

/** `X-Api-Key` -> `xapikey`; `password2` -> `password`. */
export function normalisedName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '').replace(/\d+$/, '');
}

/** Answers kept by name: a body repeats the same few member names in every record. */
const known = new Map<string, boolean>();
const MAX_REMEMBERED = 4096;

/** True when a value under this name is a secret to mask. */
export function isCredentialName(name: string): boolean {
  let answer = known.get(name);
  if (answer === undefined) {
    const plain = normalisedName(name);
    answer = EXACT.has(plain) || ENDINGS.some((ending) => plain.endsWith(ending));
    // Names of a map body (ids, dates) are not kept forever.
    if (known.size < MAX_REMEMBERED && name.length <= 64) known.set(name, answer);
  }
  return answer;
}

/** What a masked value becomes in the simulator's own outputs. */
export const MASK = '***';
