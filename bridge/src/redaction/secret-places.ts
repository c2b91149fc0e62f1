/**
 * Where secrets travel: the headers that carry credentials, and the body and query members whose
 * values are credentials by their name (an institution password, an MFA token, a widget access token,
 * a webhook bearer token). Personal members are the document's to name (`x-personal`).
 */
import { isCredentialName } from '../../../openapi/security/credential-names.js';

/** Headers holding `name=value` cookies (their values are redacted one by one). */
export const COOKIE_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);

/**
 * Names whose values are credentials, in headers, bodies and queries: the one list every output of
 * ofkit shares (openapi/security). The MFA `session` and the `link` stay readable; a user name is
 * personal data (`x-personal` in the document), redacted unless personal data is kept.
 */
export { isCredentialName };

/** Secrets shorter than this are not searched for in free text (a one-letter password would match everywhere). */
export const MIN_SEARCHED_SECRET = 4;
/** Personal values shorter than this are not searched for in free text (they stay redacted where named). */
export const MIN_SEARCHED_PERSONAL = 5;
