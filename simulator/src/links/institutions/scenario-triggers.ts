/**
 * Scenario triggers a user can hit without the control API (documented in the README):
 * - a username starting with `mfa` makes any institution ask for a token (LINK-MFA-428);
 * - the password `wrong-password` is refused by the institution (400 `invalid_credentials`);
 * - the MFA token `123456` is accepted; any other token is refused (400 `invalid_token`).
 */
export const MFA_USERNAME_PREFIX = 'mfa';
export const REFUSED_PASSWORD = 'wrong-password';
export const ACCEPTED_MFA_TOKEN = '123456';
/** LINK-MFA-428 (choice): seconds a paused session can be resumed. */
export const MFA_SESSION_SECONDS = 600;

/** A username the `mfa` trigger names: any institution asks it for a token (LINK-MFA-428). */
export const isMfaUsername = (username: string) => username.toLowerCase().startsWith(MFA_USERNAME_PREFIX);
