/**
 * The sandbox operations of the control API (admin.yaml tag `Sandbox`), what the best providers'
 * sandboxes offer: fire an event of the catalogue for a link now (`fireLinkEvent`), make a link need new
 * credentials or a token now (`setLinkStatus`), create a link from a description (`createDescribedLink`).
 */
import type { JsonObject } from '../../../openapi/document/json.js';
import { type ApiErrors, apiError } from '../core/api-error.js';
import { LINKS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import type { RetrievalMachine } from '../data/retrieval-machine.js';
import { failLogin, type LoginFailure } from '../links/events/login-failures.js';
import { publicView } from '../store/record-views.js';
import type { StoredRecord } from '../store/store.js';
import { describedLinkHandler } from './described-link-handler.js';
import { FIRINGS, LINK_EVENTS } from './link-event-firings.js';
import { eventsRaisedBy, SANDBOX_NOTE, sandboxSendsNoLinkEvents } from './raised-events.js';
import { collectionSchemas } from './snapshot-check.js';

/** The link of the path, or its 404; a registration paused for its token is not a link to act on yet. */
async function actionableLink(tenant: TenantRuntime, id: string): Promise<Result<StoredRecord, ApiErrors>> {
  const link = await tenant.store.get(LINKS, id);
  if (!link) return err(apiError('not_found', { message: `No link ${id} in ${LINKS}.` }));
  if (link.status === 'unconfirmed') return err(apiError('unconfirmed_link'));
  return ok(link);
}

const currentStatus = async (tenant: TenantRuntime, id: string) =>
  ((await tenant.store.get(LINKS, id))?.status as string | undefined) ?? null;

function fireLinkEvent(linkData: LinkData): Handler {
  return async ({ input, tenant, requestId }) => {
    const { event, count } = input.body as { event: string; count?: number };
    const link = await actionableLink(tenant, String(input.path.link_id));
    if (!link.ok) return link;
    const fire = FIRINGS[event]!;
    if (count !== undefined && !event.endsWith('_available')) {
      const message = '`count` applies to the new_*_available events only.';
      return err(apiError('invalid', { field: 'count', message }));
    }
    if (!LINK_EVENTS.has(event) && link.value.status !== 'valid') {
      const message = `Link ${link.value.id} is ${String(link.value.status)}: it cannot reach its institution until PUT /api/links/{id}/ gives new credentials (LINK-PUT-CREDENTIALS).`;
      return err(apiError('invalid_status', { message }));
    }
    let fired: Awaited<ReturnType<typeof fire>> | undefined;
    const firing = { tenant, link: link.value, linkData, count: count ?? 1, requestId };
    const events = await eventsRaisedBy(tenant, link.value.id, async () => {
      fired = await fire(firing);
    });
    if (fired && !fired.ok) return fired;
    const silenced = event.startsWith('link_') && (await sandboxSendsNoLinkEvents(tenant));
    return ok(
      json(202, {
        event,
        link: link.value.id,
        link_status: await currentStatus(tenant, link.value.id),
        events,
        note: silenced ? SANDBOX_NOTE : null,
      }),
    );
  };
}

/** Why a status change sent no LINK event, or null when one was sent. */
async function silence(tenant: TenantRuntime, link: StoredRecord): Promise<string | null> {
  if (await sandboxSendsNoLinkEvents(tenant)) return SANDBOX_NOTE;
  if (link.access_mode !== 'recurrent')
    return 'A single link gets no LINK event (the catalogue sends them when a recurrent link refreshes): the status changed, no event was sent.';
  return null;
}

/** LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED on demand: the status, and a recurrent link's event. */
const setLinkStatus: Handler = async ({ input, tenant }) => {
  const { status } = input.body as { status: LoginFailure };
  const link = await actionableLink(tenant, String(input.path.link_id));
  if (!link.ok) return link;
  const notify = link.value.access_mode === 'recurrent';
  const events = await eventsRaisedBy(tenant, link.value.id, () =>
    failLogin(tenant, link.value, status, notify),
  );
  const updated = (await tenant.store.get(LINKS, link.value.id)) ?? link.value;
  return ok(json(200, { link: publicView(updated), events, note: await silence(tenant, link.value) }));
};

/** `api`: the bundled API document (described records meet its schemas); `machine`: the data machine. */
export function sandboxHandlers(
  api: JsonObject,
  linkData: LinkData,
  machine: RetrievalMachine,
): [string, Handler][] {
  return [
    ['fireLinkEvent', fireLinkEvent(linkData)],
    ['setLinkStatus', setLinkStatus],
    ['createDescribedLink', describedLinkHandler(linkData, machine, collectionSchemas(api))],
  ];
}
