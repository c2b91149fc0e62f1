/**
 * LINK-MFA-428: the sessions of requests paused because the institution asks for an MFA token. Link
 * registration (`/api/links/`) and the retrievals of owners, accounts, transactions and invoices pause
 * here with a 428; the PATCH on the same collection resumes them with the token. As the provider does,
 * every session belongs to a link: a paused registration has already created its link (status
 * `unconfirmed` until resumed), and the 428 item carries that link's id for the PATCH to send back.
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import { takeScenario } from '../core/armed-switches.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';
import { institutionByName } from './institutions/catalogue.js';
import { ACCEPTED_MFA_TOKEN, isMfaUsername, MFA_SESSION_SECONDS } from './institutions/scenario-triggers.js';

/** Private collection of paused requests; a session's `link` indexes it (deleting a link drops them). */
export const MFA_SESSIONS = '_mfa_sessions';

type Body = Record<string, unknown>;

/**
 * What was paused: the collection it must be resumed on, its link and the link's institution, the
 * validated body, and the operation whose effect the resume completes (a registration, a credentials
 * update, a retrieval).
 */
export interface PausedRequest {
  collection: string;
  link: string;
  institution: string;
  operationId: string;
  body: Body;
}

/**
 * Whether the institution asks for a token when `username` logs in: an institution with the
 * `token_required` feature always does, any institution does for a username starting with `mfa`.
 */
export function institutionAsksForToken(institution: string, username: unknown): boolean {
  const entry = institutionByName(institution);
  if (entry?.features.includes('token_required')) return true;
  return typeof username === 'string' && isMfaUsername(username);
}

/** The token question about one login: who logs in where, the link's state, what the request carries. */
export interface TokenQuestion {
  institution: string;
  username: unknown;
  /** The link's id and status for an existing link's login (a credentials update, a retrieval); null for a registration. */
  link: { id: string; status: unknown } | null;
  /** The token the request carries up front (the SDK's `token` option), if any. */
  token: unknown;
}

/** The token question of an existing link's login (its stored username), carrying `token` up front. */
export const loginOf = (link: StoredRecord, token: unknown): TokenQuestion => ({
  institution: String(link.institution),
  username: link._username,
  link: { id: String(link.id), status: link.status },
  token,
});

/**
 * LINK-MFA-428, the one answer to "does this institution want a token now?": never when the request
 * carries the accepted token; always for an institution with the `token_required` feature, an `mfa`
 * username or a link whose refresh needed one (`token_required`); otherwise when the
 * `institution_requires_token` switch is on for it, which only a request without a token uses up.
 */
export async function wantsToken(tenant: TenantRuntime, question: TokenQuestion): Promise<boolean> {
  const { institution, username, link, token } = question;
  if (token === ACCEPTED_MFA_TOKEN) return false;
  if (institutionAsksForToken(institution, username) || link?.status === 'token_required') return true;
  if (token !== undefined) return false;
  const target = link === null ? { institution } : { institution, link: link.id };
  return takeScenario(tenant, 'institution_requires_token', target);
}

/** Pauses the request in a new session and answers the 428 of LINK-MFA-428. */
export async function pauseForToken(
  tenant: TenantRuntime,
  paused: PausedRequest,
): Promise<Result<never, ApiErrors>> {
  const session = tenant.ids.hex(32);
  await tenant.store.put(MFA_SESSIONS, {
    id: session,
    link: paused.link,
    _collection: paused.collection,
    _institution: paused.institution,
    _operationId: paused.operationId,
    _expiresAt: tenant.clock.now() + MFA_SESSION_SECONDS * 1000,
    _body: paused.body,
  });
  const tokenGenerationData = {
    instructions: 'Use the code sent to your phone.',
    type: 'numeric',
    value: '',
    expects_user_input: true,
  };
  return err(
    apiError('token_required', {
      rule: 'LINK-MFA-428',
      extra: {
        session,
        expiry: MFA_SESSION_SECONDS,
        link: paused.link,
        token_generation_data: tokenGenerationData,
      },
    }),
  );
}

/** The PATCH body that resumes (the provider's: `link` is required, `token` may be left out). */
export interface ResumeBody {
  session: string;
  link: string;
  token?: string;
}

/**
 * The paused request of `session` when `token` is right. An unknown or expired session, one paused on
 * another collection, or one already resumed (a session is used up once) gets 400 `session_expired`; a
 * session resumed with another `link` gets 400 `invalid` with `field: link` (choice); a wrong or missing
 * token 400 `invalid_token`, and the session stays open for another try until it expires (choice). An
 * institution that asks for another token (the control API's `institution_requires_another_token`)
 * pauses the request again: a new 428 whose session the next PATCH resumes.
 */
export async function resumePaused(
  tenant: TenantRuntime,
  collection: string,
  resume: ResumeBody,
): Promise<Result<PausedRequest, ApiErrors>> {
  const paused = await tenant.store.get(MFA_SESSIONS, resume.session);
  if (!paused || paused._collection !== collection || (paused._expiresAt as number) <= tenant.clock.now()) {
    return err(apiError('session_expired', { field: 'session', rule: 'LINK-MFA-428' }));
  }
  const link = String(paused.link);
  if (resume.link !== link) {
    const message = `Session ${resume.session} belongs to link ${link}, not ${resume.link}.`;
    return err(apiError('invalid', { field: 'link', message }));
  }
  if (tenant.policy.links.mfaTokenChecked && resume.token !== ACCEPTED_MFA_TOKEN) {
    if (!tenant.policy.links.mfaSessionSurvivesWrongToken)
      await tenant.store.take(MFA_SESSIONS, resume.session);
    return err(apiError('invalid_token', { field: 'token' }));
  }
  // LINK-MFA-428: a session resumes once. Taken in one atomic step: of two resumes at once (two
  // replicas), the second finds it gone.
  if (!(await tenant.store.take(MFA_SESSIONS, resume.session)))
    return err(apiError('session_expired', { field: 'session', rule: 'LINK-MFA-428' }));
  const request: PausedRequest = {
    collection,
    link,
    institution: String(paused._institution),
    operationId: String(paused._operationId),
    body: paused._body as Body,
  };
  const target = { institution: request.institution, link };
  if (await takeScenario(tenant, 'institution_requires_another_token', target))
    return pauseForToken(tenant, request);
  return ok(request);
}
