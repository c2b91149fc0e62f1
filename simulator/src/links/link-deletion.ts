/**
 * LINK-DELETE-SYNC, LINK-DELETE-ASYNC and DELETE-RATE-LIMIT: a link deleted with its data, at once or by
 * a job on the tenant's clock, each deletion one atomic step of the store (whichever replicas race).
 */

import { LINKS } from '../core/collections.js';
import { type Handler, json, noContent } from '../core/handler.js';
import type { JobArgs, JobKinds } from '../core/job-kinds.js';
import { err, ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { findOr404, notFound } from '../pipeline/records.js';
import { deletionWindow, tooManyDeletions } from './deletion-limit.js';
import type { LinkDeletion, LinkTriggers } from './events/link-triggers.js';
import { MFA_SESSIONS } from './mfa-sessions.js';

/** The job kind of LINK-DELETE-ASYNC: `{ link, requestId }`. */
export const ASYNC_LINK_DELETION = 'async link deletion';

/**
 * What an asynchronous deletion job noted, by job id, in the step that deleted the link: the
 * `link_deleted` it owes. A job that runs again (its replica died) finds it and raises that event (the
 * same id: logged and delivered once); the note goes once the event is logged.
 */
const DELETION_NOTES = '_link_deletions';

/**
 * The deleteLink handler; defines the asynchronous deletion's job kind. `dataCollections` go with a
 * deleted link (LINK-DELETE-SYNC).
 */
export function linkDeletion(
  dataCollections: readonly string[],
  triggers: LinkTriggers,
  jobs: JobKinds,
): Handler {
  // LINK-DELETE-SYNC: the link's data goes with it; LINK-MFA-428: retrievals of the link paused for a
  // token cannot be resumed any more.
  const cascadeOf = (tenant: TenantRuntime) => [
    ...(tenant.policy.links.deletionTakesData ? dataCollections : []),
    MFA_SESSIONS,
  ];
  const deleteLink: Handler = async ({ input, tenant, requestId, operation }) => {
    const id = input.path.id!;
    if (input.headers['x-service-request-mode'] === 'async') {
      const link = await findOr404(tenant, LINKS, id);
      if (!link.ok) return link;
      // LINK-DELETE-ASYNC: 202 now; the deletion runs as a job on the tenant's clock.
      await tenant.clock.schedule(tenant.clock.now() + 1000, ASYNC_LINK_DELETION, { link: id, requestId });
      return ok(json(202, { request_id: requestId }));
    }
    // One atomic step of the store: of several replicas deleting one link at once, exactly one deletes
    // it with its data and takes one slot of the window (DELETE-RATE-LIMIT): 204; the others find it
    // gone: 404.
    const window = deletionWindow(tenant, LINKS, operation);
    const removal = await tenant.store.removeRecord({
      collection: LINKS,
      id,
      cascade: cascadeOf(tenant),
      ...(window && { window }),
    });
    if (removal.outcome === 'missing') return err(notFound(LINKS, id));
    if (removal.outcome === 'refused') return err(tooManyDeletions(LINKS, window!, removal.hit));
    return ok(noContent());
  };
  /** The link deleted by this job, now or on an earlier run; undefined when another deletion took it. */
  const deleteOnce = async (tenant: TenantRuntime, args: JobArgs, jobId: string) => {
    const noted = await tenant.store.get(DELETION_NOTES, jobId);
    if (noted) return noted.deletion as LinkDeletion;
    const deletion: LinkDeletion = {
      link: String(args.link),
      requestId: String(args.requestId),
      event: tenant.ids.hex(32),
      deletedAt: tenant.clock.now(),
    };
    const removal = await tenant.store.removeRecord({
      collection: LINKS,
      id: deletion.link,
      cascade: cascadeOf(tenant),
      mark: { collection: DELETION_NOTES, record: { id: jobId, deletion } },
    });
    return removal.outcome === 'removed' ? deletion : undefined;
  };
  jobs.define(ASYNC_LINK_DELETION, async (tenant, args, job) => {
    // Deleted meanwhile (by a synchronous DELETE or another async one): no second `link_deleted`.
    const deletion = await deleteOnce(tenant, args, job.id);
    if (!deletion) return;
    await triggers.linkDeleted(tenant, deletion);
    await tenant.store.delete(DELETION_NOTES, job.id);
  });
  return deleteLink;
}
