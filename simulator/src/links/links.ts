/**
 * Links: LINK-REGISTER (with the consent of a Brazilian bank), LINK-MFA-428 (registration), LINK-DELETE-SYNC, LINK-DELETE-ASYNC,
 * LINK-REFRESH-202, LINK-REFRESH-COOLDOWN, DELETE-RATE-LIMIT, LINK-PUT-CREDENTIALS, and the PATCHes.
 */

import { apiError } from '../core/api-error.js';
import { takeScenario } from '../core/armed-switches.js';
import { LINKS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { JobKinds } from '../core/job-kinds.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { MINUTE_MS } from '../core/time.js';
import { createIds, createRandom } from '../ids/seeded-ids.js';
import { collectionList } from '../pipeline/lists/list-query.js';
import { findOr404, nowIso, publicView, recordAnswer } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { type LinkTriggers, linkTriggers } from './events/link-triggers.js';
import { institutionUserId } from './institution-user-id.js';
import { institutionByName, institutionIn } from './institutions/catalogue.js';
import { REFUSED_PASSWORD } from './institutions/scenario-triggers.js';
import { recordConsent } from './link-consents.js';
import { linkDeletion } from './link-deletion.js';
import { loginOf, pauseForToken, type ResumeBody, resumePaused, wantsToken } from './mfa-sessions.js';

type Body = Record<string, unknown>;

/**
 * A new link's record, not stored yet: `status` is `unconfirmed` for a registration paused for a token
 * (LINK-MFA-428), `valid` otherwise. `body` is a registration's (its institution known).
 */
export function newLinkRecord(tenant: TenantRuntime, body: Body, status = 'valid'): StoredRecord {
  const institution = institutionByName(String(body.institution))!;
  const now = nowIso(tenant);
  return {
    id: tenant.ids.uuid(),
    institution: institution.name,
    access_mode: body.access_mode ?? 'single',
    status,
    created_at: now,
    external_id: body.external_id ?? null,
    last_accessed_at: now,
    fetch_resources: body.fetch_resources ?? institution.resources,
    stale_in: body.stale_in ?? '365d',
    credentials_storage: body.credentials_storage ?? '27d',
    ...providerMembers(tenant, institution.name, body),
    _password: body.password ?? null,
    // LINK-MFA-428: retrievals of this link ask for a token when its username does (data-resources).
    _username: body.username ?? null,
  };
}

/** Stores a new link and the consent a Brazilian bank gives with it. */
export async function storeNewLink(tenant: TenantRuntime, link: StoredRecord): Promise<void> {
  await tenant.store.put(LINKS, link);
  await recordConsent(tenant, link);
}

async function createLink(tenant: TenantRuntime, body: Body, status = 'valid'): Promise<StoredRecord> {
  const link = newLinkRecord(tenant, body, status);
  await storeNewLink(tenant, link);
  return link;
}

/** A recurrent link is refreshed daily (the provider's `24h`); a single one is not refreshed (null). */
const refreshRateOf = (accessMode: unknown) => (accessMode === 'recurrent' ? '24h' : null);

/**
 * The provider's link members: `institution_user_id` (institution-user-id.ts); `created_by`, the
 * tenant's user (a uuid seeded by the tenant id); `refresh_rate` from the access mode.
 */
function providerMembers(tenant: TenantRuntime, institution: string, body: Body) {
  return {
    institution_user_id: institutionUserId(tenant.id, institution, body.username),
    created_by: createIds(createRandom(`${tenant.id}#user`)).uuid(),
    refresh_rate: refreshRateOf(body.access_mode ?? 'single'),
  };
}

const registerLink =
  (triggers: LinkTriggers): Handler =>
  async ({ input, tenant }) => {
    const body = input.body as Body;
    // The provider's sandbox institutions exist in the sandbox environment only.
    const institution = institutionIn(String(body.institution), tenant.environment);
    if (!institution)
      return err(
        apiError('invalid', {
          field: 'institution',
          message: `Unknown institution ${String(body.institution)}.`,
        }),
      );
    for (const field of institution.form_fields) {
      if (!field.optional && body[field.name] === undefined) {
        return err(
          apiError('required', {
            field: field.name,
            rule: 'ERR-REQUIRED',
            message: `${institution.name} needs \`${field.name}\` (${field.label}).`,
          }),
        );
      }
    }
    const target = { institution: institution.name };
    if (
      body.password === REFUSED_PASSWORD ||
      (await takeScenario(tenant, 'institution_refuses_credentials', target))
    ) {
      return err(apiError('invalid_credentials', { field: 'password' }));
    }
    const login = { institution: institution.name, username: body.username, link: null, token: body.token };
    if (await wantsToken(tenant, login)) {
      // LINK-MFA-428 (the provider's way): the link exists from the 428 on, listed as `unconfirmed`
      // (choice) until the PATCH resumes it; no webhook until then.
      const pending = await createLink(tenant, body, 'unconfirmed');
      return pauseForToken(tenant, {
        collection: LINKS,
        link: pending.id,
        institution: institution.name,
        operationId: 'registerLink',
        body,
      });
    }
    const link = await createLink(tenant, body);
    await triggers.linkCreated(tenant, link); // WEBHOOK-HISTORICAL
    return ok(json(201, publicView(link)));
  };

/** A registration paused for a token, completed: the pending link becomes `valid` (LINK-MFA-428). */
async function confirmRegistration(triggers: LinkTriggers, tenant: TenantRuntime, pending: StoredRecord) {
  const link = { ...pending, status: 'valid', last_accessed_at: nowIso(tenant) };
  await tenant.store.put(LINKS, link);
  await recordConsent(tenant, link); // the bank's consent, now authorised
  await triggers.linkCreated(tenant, link); // WEBHOOK-HISTORICAL
  return ok(json(200, publicView(link)));
}

/** PATCH /api/links/: resumes a registration, or a credentials update (PUT), paused for a token. */
const resumeLinkRegistration =
  (triggers: LinkTriggers): Handler =>
  async ({ input, tenant }) => {
    const paused = await resumePaused(tenant, LINKS, input.body as ResumeBody);
    if (!paused.ok) return paused;
    // The session dies with its link (deleteWithData), so the pending link is still there.
    const pending = await findOr404(tenant, LINKS, paused.value.link, 'link');
    if (!pending.ok) return pending;
    if (paused.value.operationId === 'updateLinkCredentials')
      return storeCredentials(triggers, tenant, pending.value, paused.value.body);
    return confirmRegistration(triggers, tenant, pending.value);
  };

const getLink: Handler = async ({ input, tenant }) => {
  const link = await findOr404(tenant, LINKS, input.path.id!);
  return link.ok ? ok(recordAnswer(200, link.value)) : link;
};

const updateLink =
  (triggers: LinkTriggers): Handler =>
  async ({ input, tenant }) => {
    const link = await findOr404(tenant, LINKS, input.path.id!);
    if (!link.ok) return link;
    // The body is open (the provider's): only the members this operation changes are taken.
    const body = input.body as Body;
    const changes = Object.fromEntries(
      ['access_mode', 'stale_in', 'fetch_resources']
        .filter((k) => body[k] !== undefined)
        .map((k) => [k, body[k]]),
    );
    const updated = {
      ...link.value,
      ...changes,
      refresh_rate: refreshRateOf(changes.access_mode ?? link.value.access_mode),
    };
    await tenant.store.put(LINKS, updated);
    // LINK-ACCESS-MODE-UP / -DOWN, LINK-PATCH-NO-UPDATE
    await triggers.linkUpdated(tenant, link.value, updated);
    return ok(json(200, publicView(updated)));
  };

/** LINK-PUT-CREDENTIALS: new credentials bring an invalid or token_required link back. */
async function storeCredentials(
  triggers: LinkTriggers,
  tenant: TenantRuntime,
  link: StoredRecord,
  body: Body,
) {
  const updated = {
    ...link,
    status: tenant.policy.links.newCredentialsRevalidate ? 'valid' : link.status,
    _password: body.password,
    last_accessed_at: nowIso(tenant),
  };
  await tenant.store.put(LINKS, updated);
  await triggers.credentialsUpdated(tenant, link, updated);
  return ok(json(200, publicView(updated)));
}

const updateLinkCredentials =
  (triggers: LinkTriggers): Handler =>
  async ({ input, tenant }) => {
    const link = await findOr404(tenant, LINKS, input.path.id!);
    if (!link.ok) return link;
    const body = input.body as Body;
    if (body.password === REFUSED_PASSWORD)
      return err(apiError('invalid_credentials', { field: 'password' }));
    // LINK-MFA-428 on a credentials update: the link logs in again, and may be asked as at registration.
    if (await wantsToken(tenant, loginOf(link.value, body.token))) {
      const paused = { collection: LINKS, link: link.value.id, body };
      const institution = String(link.value.institution);
      return pauseForToken(tenant, { ...paused, institution, operationId: 'updateLinkCredentials' });
    }
    return storeCredentials(triggers, tenant, link.value, body);
  };

const refreshLink =
  (triggers: LinkTriggers): Handler =>
  async ({ input, tenant, requestId }) => {
    const link = await findOr404(tenant, LINKS, input.path.id!);
    if (!link.ok) return link;
    // LINK-REFRESH-COOLDOWN: `x-cooldown` of the operation (600 s per link), in the tenant's policy.
    const cooldownMs = tenant.policy.links.refreshCooldownMs;
    // One atomic step in the store, at the tenant's virtual time: of two replicas refreshing the same
    // link at once, one gets the 409 (a window of one hit per cooldown).
    const hit =
      cooldownMs === null
        ? undefined
        : await tenant.store.hitSlidingWindow(`refresh:${link.value.id}`, tenant.clock.now(), cooldownMs, 1);
    if (hit && !hit.allowed) {
      const minutes = Math.ceil(hit.retryAfterMs / MINUTE_MS);
      const message = `This link was refreshed recently. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before refreshing it again.`;
      return err(apiError('refresh_cooldown', { message, rule: 'LINK-REFRESH-COOLDOWN' }));
    }
    // LINK-REFRESH-202: the body's `fetch_resources` limits this refresh only; the link keeps its own.
    const fetchResources = (input.body as Body | undefined)?.fetch_resources as string[] | undefined;
    const refreshed = {
      ...link.value,
      ...(fetchResources &&
        tenant.policy.links.refreshStoresFetchResources && { fetch_resources: fetchResources }),
      last_accessed_at: nowIso(tenant),
    };
    await tenant.store.put(LINKS, refreshed);
    await triggers.linkRefreshed(tenant, refreshed, requestId, fetchResources);
    return ok(json(202, { request_id: requestId }));
  };

/**
 * Handlers for the link operations; `dataCollections` go with a deleted link (LINK-DELETE-SYNC); the
 * link's data feeds the webhook triggers; `afterCreated`, a situation's, is told of each new link after
 * its own events (a recurrent link's life script, `--recurrent-life`).
 */
export function linkHandlers(
  dataCollections: readonly string[],
  linkData: LinkData,
  jobs: JobKinds,
  afterCreated?: (tenant: TenantRuntime, link: StoredRecord) => Promise<void>,
): [string, Handler][] {
  const own = linkTriggers(linkData, jobs);
  const triggers: LinkTriggers = afterCreated
    ? {
        ...own,
        linkCreated: (tenant, link) => own.linkCreated(tenant, link).then(() => afterCreated(tenant, link)),
      }
    : own;
  const deleteLink = linkDeletion(dataCollections, triggers, jobs);
  return [
    ['registerLink', registerLink(triggers)],
    ['resumeLinkRegistration', resumeLinkRegistration(triggers)],
    ['listLinks', collectionList(LINKS)],
    ['getLink', getLink],
    ['updateLink', updateLink(triggers)],
    ['updateLinkCredentials', updateLinkCredentials(triggers)],
    ['deleteLink', deleteLink],
    ['refreshLink', refreshLink(triggers)],
  ];
}
