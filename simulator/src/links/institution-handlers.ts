/** Institutions (the simulated catalogue), consents and the connection widget's token. */

import { apiError } from '../core/api-error.js';
import { CONSENTS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { Environment } from '../core/keys.js';
import { err, ok } from '../core/result.js';
import { declaredFilters, filterRecords } from '../pipeline/lists/list-filters.js';
import { collectionList, paginate } from '../pipeline/lists/list-query.js';
import { findOr404, recordAnswer } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { institutionRecord, institutionsOf } from './institutions/catalogue.js';

// The list machine types records by the store's (string ids); an institution's id is the provider's integer.
const recordsOf = (environment: Environment) =>
  institutionsOf(environment).map((entry) => institutionRecord(entry) as unknown as StoredRecord);
const institutionRecords = { production: recordsOf('production'), sandbox: recordsOf('sandbox') };
const byId = (environment: Environment) =>
  new Map(institutionsOf(environment).map((entry) => [entry.id, institutionRecord(entry)]));
const institutionsById = { production: byId('production'), sandbox: byId('sandbox') };

const listInstitutions: Handler = async ({ input, request, tenant, operation }) => {
  const all = institutionRecords[tenant.environment];
  const records = filterRecords(all, input.query, tenant.policy.lists, declaredFilters(operation));
  return ok(json(200, paginate(records, input.query, request, tenant.policy.lists)));
};

const getInstitution: Handler = async ({ input, tenant }) => {
  // The provider's ids are integers; any other text (a uuid of an older snapshot) names none: 404.
  const id = /^\d{1,10}$/.test(input.path.id ?? '') ? Number(input.path.id) : undefined;
  const found = id === undefined ? undefined : institutionsById[tenant.environment].get(id);
  return found
    ? ok(json(200, found))
    : err(apiError('not_found', { message: `No institution ${input.path.id}.` }));
};

const getConsent: Handler = async ({ input, tenant }) => {
  const consent = await findOr404(tenant, CONSENTS, input.path.id!);
  return consent.ok ? ok(recordAnswer(200, consent.value)) : consent;
};

/** TOKEN-WIDGET (choice: 201, 600 s): opaque and not kept; the simulator serves no widget to check it. */
const createWidgetToken: Handler = async ({ tenant }) => {
  const access = `wa_${tenant.ids.hex(40)}`;
  const expiresIn = tenant.policy.links.widgetTokenSeconds;
  return ok(json(201, { access, refresh: `wr_${tenant.ids.hex(40)}`, expires_in: expiresIn }));
};

export const institutionHandlers: [string, Handler][] = [
  ['listInstitutions', listInstitutions],
  ['getInstitution', getInstitution],
  ['listConsents', collectionList(CONSENTS)],
  ['getConsent', getConsent],
  ['createWidgetToken', createWidgetToken],
];
