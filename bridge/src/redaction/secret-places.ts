/**
 * Where secrets travel: the headers that carry credentials, and the body and query members whose
 * values are credentials by their name (an institution password, an MFA token or session, a widget
 * access token, a webhook bearer token). Personal members are the document's to name (`x-personal`).
 */

/** Headers whose whole value is a credential (cookies are handled value by value). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-auth-token',
  'x-access-token',
]);

/** Headers holding `name=value` cookies. */
export const COOKIE_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);

/**
 * Member and query parameter names whose string values are credentials: an institution's user names
 * and passwords, secrets, tokens (MFA tokens; `token_generation_data` is an object and keeps its
 * instructions), MFA sessions, API keys, the widget's `access` and `refresh` tokens, certificates and
 * private keys. Exact names (or a `_password` / `_secret` / `_token` ending): `credentials_storage`
 * says how long credentials are kept, it is none.
 */
const CREDENTIAL_NAME =
  /^(password\d?|passcode|secret|token|session|api_?key|access|refresh|username\d?|credentials|authorization|private_key|certificate)$|_(password|secret|token)$/i;

/** Answers kept by name: a body repeats the same few member names in every record. */
const credentialNames = new Map<string, boolean>();
const MAX_REMEMBERED_NAMES = 4096;

export function isCredentialName(name: string): boolean {
  let known = credentialNames.get(name);
  if (known === undefined) {
    known = CREDENTIAL_NAME.test(name);
    // Member names are the document's few hundred; a map body's keys (ids, dates) are not kept forever.
    if (credentialNames.size < MAX_REMEMBERED_NAMES && name.length <= 64) credentialNames.set(name, known);
  }
  return known;
}

/** Secrets shorter than this are not searched for in free text (a one-letter password would match everywhere). */
export const MIN_SEARCHED_SECRET = 4;
/** Personal values shorter than this are not searched for in free text (they stay redacted where named). */
export const MIN_SEARCHED_PERSONAL = 5;
