/**
 * POST `P/` (DATA-RETRIEVE) and PATCH `P/` (LINK-MFA-428 resume) of every data resource. A retrieval
 * checks, in order: the link (404 `field: link`), its status, `x-applies-to` and features (400), the
 * range (RANGE-365, 400), the MFA token (428) where the collection can be resumed, then the parent
 * records (EMPLOYMENT-METRICS-PREREQ 400, 404 for an asked one the link does not have).
 */

import { type ApiErrors, apiError } from '../core/api-error.js';
import { LINKS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { JobRunner } from '../core/job-kinds.js';
import { err, ok, type Result } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { loginOf, pauseForToken, type ResumeBody, resumePaused, wantsToken } from '../links/mfa-sessions.js';
import { findOr404, publicView } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import type { DataResource } from './resource-catalogue.js';
import { type RetrievalMachine, todayOf } from './retrieval-machine.js';
import { type RetrievalRequest, readRetrieval } from './retrieval-request.js';

type Body = Record<string, unknown>;

interface Prepared {
  /** The resource with the limits the tenant's policy holds it to. */
  resource: DataResource;
  link: StoredRecord;
  request: RetrievalRequest;
  parents: StoredRecord[] | undefined;
}

/** The resource with the limits of the tenant's policy (RANGE-365, EXCHANGE-HISTORY, TAX-RETENTIONS-500). */
function limitedResource(tenant: TenantRuntime, resource: DataResource): DataResource {
  const { rangeLimited, historyDefaultRangeDays, recordsPerPeriodCapped } = tenant.policy.data;
  const keepsHistory = resource.operations.history !== undefined;
  return {
    ...resource,
    maxRangeDays: rangeLimited ? resource.maxRangeDays : null,
    defaultRangeDays:
      keepsHistory && historyDefaultRangeDays !== null ? historyDefaultRangeDays : resource.defaultRangeDays,
    maxRecordsPerPeriod: recordsPerPeriodCapped ? resource.maxRecordsPerPeriod : null,
  };
}

/** The checks of a retrieval; `askToken` is false when a resumed session already carried the token. */
async function prepare(
  machine: RetrievalMachine,
  tenant: TenantRuntime,
  resource: DataResource,
  body: Body,
  askToken: boolean,
): Promise<Result<Prepared, ApiErrors>> {
  const link = await findOr404(tenant, LINKS, String(body.link), 'link');
  if (!link.ok) return link;
  // Choice: a link whose credentials stopped working (LINK-INVALID-CREDENTIALS) cannot be read.
  if (link.value.status === 'invalid') return err(apiError('invalid_credentials', { field: 'link' }));
  // LINK-MFA-428: a registration paused for a token left its link `unconfirmed` until resumed.
  if (link.value.status === 'unconfirmed') return err(apiError('unconfirmed_link', { field: 'link' }));
  const refusal = machine.refusal(link.value, resource);
  if (refusal !== null) return err(apiError('unsupported_resource', { field: 'link', message: refusal }));
  const limits = limitedResource(tenant, resource);
  const read = readRetrieval(limits, body, todayOf(tenant));
  if (!read.ok) return read;
  // TAX-RETURNS-MIXED: the kind asked for (yearly or monthly) is the kind answered; unread, both come.
  const request = tenant.policy.data.retrievalsReadKind ? read.value : { ...read.value, type: null };
  // Before reading anything (parents included): a paused retrieval has no effect until resumed.
  // A token sent up front (the SDK's `token` option) answers the institution's question at once.
  if (
    askToken &&
    resource.operations.resume !== undefined &&
    (await wantsToken(tenant, loginOf(link.value, body.token)))
  ) {
    return pauseForToken(tenant, {
      collection: resource.path,
      link: link.value.id,
      institution: String(link.value.institution),
      operationId: resource.operations.retrieve ?? resource.path,
      body,
    });
  }
  const parents = await parentsOf(machine, tenant, link.value, resource, request);
  if (!parents.ok) return parents;
  return ok({ resource: limits, link: link.value, request, parents: parents.value });
}

/** The parents the retrieval reads; 404 for an asked one the link does not have, 400 for a missing prerequisite. */
async function parentsOf(
  machine: RetrievalMachine,
  tenant: TenantRuntime,
  link: StoredRecord,
  resource: DataResource,
  request: RetrievalRequest,
): Promise<Result<StoredRecord[] | undefined, ApiErrors>> {
  const parent = resource.parent;
  if (parent === null) return ok(undefined);
  const parents = await machine.parents(tenant, link, resource, request.save);
  if (tenant.policy.data.derivedNeedParents && parent.storedOnly && parents.length === 0) {
    // EMPLOYMENT-METRICS-PREREQ: an employment record retrieval comes first.
    const message = `Retrieve ${parent.path} for link ${link.id} first: ${resource.path} derives from them.`;
    return err(apiError('prerequisite_missing', { field: 'link', message }));
  }
  const field = parent.bodyField ?? parent.field;
  if (request.parent !== null && !parents.some((record) => record.id === request.parent)) {
    const kinds = parent.categories ? ` (${parent.categories.join(', ')})` : '';
    const message = `Link ${link.id} has no ${parent.field.replaceAll('_', ' ')}${kinds} ${request.parent}.`;
    return err(apiError('not_found', { field, message }));
  }
  return ok(parents);
}

/** DATA-RETRIEVE: the records as a list, or the one record where the resource answers one. */
const answer = (resource: DataResource, status: number, records: StoredRecord[]) => {
  const [first] = records;
  return json(status, resource.answersOne && first ? publicView(first) : records.map(publicView));
};

/** The provider's statuses: 201 when the records are stored, 200 with `save_data: false` (nothing stored). */
const stored = (request: RetrievalRequest) => (request.save ? 201 : 200);

/** POST `P/`: 201 or 200 with the records; 202 where the document allows the async request mode. */
export function retrieveHandler(machine: RetrievalMachine, resource: DataResource): Handler {
  return async ({ input, tenant, operation, requestId }) => {
    const body = input.body as Body;
    const prepared = await prepare(machine, tenant, resource, body, true);
    if (!prepared.ok) return prepared;
    const { link, request, parents } = prepared.value;
    if (input.headers['x-service-request-mode'] === 'async' && operation.responses.has('202')) {
      // Choice: the retrieval runs a second later on the tenant's clock (a job any replica may run, its
      // checks made again then: a link deleted meanwhile retrieves nothing); GET lists its records then.
      await tenant.clock.schedule(tenant.clock.now() + 1000, ASYNC_RETRIEVAL, { path: resource.path, body });
      return ok(json(202, { request_id: requestId }));
    }
    const served = prepared.value.resource;
    const records = await machine.retrieve(tenant, link, served, request, parents);
    return ok(answer(served, stored(request), records));
  };
}

/** The job kind of an async retrieval (`x-service-request-mode: async`). */
export const ASYNC_RETRIEVAL = 'async retrieval';

/** Runs an async retrieval scheduled by `retrieveHandler`: `{ path, body }` of the request. */
export function asyncRetrievalRunner(machine: RetrievalMachine): JobRunner {
  return async (tenant, args) => {
    const resource = machine.resources.get(String(args.path));
    if (!resource) return;
    const prepared = await prepare(machine, tenant, resource, args.body as Body, false);
    if (!prepared.ok) return;
    const { link, request, parents } = prepared.value;
    await machine.retrieve(tenant, link, prepared.value.resource, request, parents);
  };
}

/** PATCH `P/`: resumes a retrieval paused with 428 and answers 201 or 200 with its records, as POST does. */
export function resumeHandler(machine: RetrievalMachine, resource: DataResource): Handler {
  return async ({ input, tenant }) => {
    const body = input.body as ResumeBody & { save_data?: boolean };
    // LINK-REGISTER: the resume names the retrieval's link; one the tenant does not have is 404, as at
    // the retrieval itself.
    const named = await findOr404(tenant, LINKS, String(body.link), 'link');
    if (!named.ok) return named;
    const paused = await resumePaused(tenant, resource.path, body);
    if (!paused.ok) return paused;
    const resumed = {
      ...paused.value.body,
      ...(body.save_data !== undefined && { save_data: body.save_data }),
    };
    const prepared = await prepare(machine, tenant, resource, resumed, false);
    if (!prepared.ok) return prepared;
    const { link, request, parents } = prepared.value;
    const served = prepared.value.resource;
    const records = await machine.retrieve(tenant, link, served, request, parents);
    return ok(answer(served, stored(request), records));
  };
}
