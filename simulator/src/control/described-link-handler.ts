/**
 * `POST /_ofkit/links/` (createDescribedLink): a link made from a short description of its
 * institution, accounts and records. Everything is checked first (the institution, the described
 * resources, each record against the API document's schema), then the link and its records are stored
 * in one go: a refused description leaves the tenant as it was.
 */
import { type ApiError, apiError } from '../core/api-error.js';
import { type Handler, json } from '../core/handler.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { DESCRIBED_MEMBER } from '../data/described-records.js';
import {
  type DraftedRecord,
  draftDescribedRecords,
  nameOf,
  type RecordsDescription,
} from '../data/link-description.js';
import type { RetrievalMachine } from '../data/retrieval-machine.js';
import { historicalOnCreation } from '../links/events/link-triggers.js';
import { institutionIn } from '../links/institutions/catalogue.js';
import { newLinkRecord, storeNewLink } from '../links/links.js';
import { publicView } from '../store/record-views.js';
import type { StoredRecord } from '../store/store.js';
import type { CollectionSchemas } from './snapshot-check.js';

interface LinkDescription extends RecordsDescription {
  institution: string;
  access_mode?: string;
  external_id?: string | null;
  username?: string;
  password?: string;
}

/** At most this many problems in one answer (a description of a thousand bad records need not list them all). */
const MAX_ERRORS = 20;

/** `/balance/current` of an Ajv error -> `.balance.current`; array items as `[n]`. */
const memberPath = (instancePath: string) =>
  instancePath
    .split('/')
    .filter(Boolean)
    .map((step) => (/^\d+$/.test(step) ? `[${step}]` : `.${step}`))
    .join('');

/** The drafted records the API document's schema of their resource refuses, named as described. */
function schemaErrors(drafts: readonly DraftedRecord[], schemas: CollectionSchemas): ApiError[] {
  const errors: ApiError[] = [];
  for (const { path, field, record } of drafts) {
    const validate = schemas(path);
    if (!validate || validate(record)) continue;
    const [first] = validate.errors ?? [];
    const where = `${field}${memberPath(first?.instancePath ?? '')}`;
    const message = `${where} ${first?.message ?? 'is not valid'} (the ${nameOf(path)} schema of the API document).`;
    errors.push({ code: 'invalid', field: where, message });
    if (errors.length >= MAX_ERRORS) break;
  }
  return errors;
}

async function storeDescribed(tenant: TenantRuntime, link: StoredRecord, records: readonly DraftedRecord[]) {
  await storeNewLink(tenant, link);
  for (const { path, record } of records) await tenant.store.put(path, record as StoredRecord);
}

/** `machine`: the data resources' machine (drafts); `schemas`: the API's record schemas by collection. */
export function describedLinkHandler(
  linkData: LinkData,
  machine: RetrievalMachine,
  schemas: CollectionSchemas,
): Handler {
  return async ({ input, tenant }) => {
    const body = input.body as LinkDescription;
    // The provider's sandbox institutions exist in the sandbox environment only.
    const institution = institutionIn(body.institution, tenant.environment);
    if (!institution) {
      const message = `No institution ${body.institution} in the ${tenant.environment} environment (GET /api/institutions/ lists them).`;
      return err(apiError('invalid', { field: 'institution', message }));
    }
    const { accounts, records, ...registration } = body;
    const link = newLinkRecord(tenant, { ...registration, institution: institution.name });
    const { drafts, errors } = await draftDescribedRecords(machine, tenant, link, { accounts, records });
    const [first, ...rest] = errors.length > 0 ? errors : schemaErrors(drafts.records, schemas);
    if (first) return err([first, ...rest.slice(0, MAX_ERRORS - 1)]);
    const described = { ...link, [DESCRIBED_MEMBER]: drafts.described };
    await storeDescribed(tenant, described, drafts.records);
    await historicalOnCreation(linkData, tenant, described); // WEBHOOK-HISTORICAL, WEBHOOK-SANDBOX
    const counts: Record<string, number> = {};
    for (const path of drafts.described) counts[nameOf(path)] = 0;
    for (const { path } of drafts.records) counts[nameOf(path)] = (counts[nameOf(path)] ?? 0) + 1;
    return ok(json(201, { link: publicView(described), records: counts }));
  };
}
