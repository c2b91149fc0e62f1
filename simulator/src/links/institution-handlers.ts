/** API-ROOT, institutions (the simulated catalogue), consents and the connection widget's token. */

import { apiError } from '../core/api-error.js';
import { CONSENTS } from '../core/collections.js';
import { type Handler, json } from '../core/handler.js';
import type { Environment } from '../core/keys.js';
import { err, ok } from '../core/result.js';
import { declaredFilters, filterRecords } from '../pipeline/lists/list-filters.js';
import { collectionList, paginate } from '../pipeline/lists/list-query.js';
import { findOr404, publicView } from '../pipeline/records.js';
import type { StoredRecord } from '../store/store.js';
import { institutionRecord, institutionsOf } from './institutions/catalogue.js';

const recordsOf = (environment: Environment) =>
  institutionsOf(environment).map((entry) => institutionRecord(entry) as StoredRecord);
const institutionRecords = { production: recordsOf('production'), sandbox: recordsOf('sandbox') };

/** API-ROOT (choice): 200 to valid credentials; authentication already refused the others with 401. */
const getApiRoot: Handler = async ({ tenant }) =>
  ok(
    json(200, {
      service: 'Open Finance Data Aggregation and Payments API',
      version: '1.223.0',
      environment: tenant.environment,
    }),
  );

const listInstitutions: Handler = async ({ input, request, tenant, operation }) => {
  const all = institutionRecords[tenant.environment];
  const records = filterRecords(all, input.query, tenant.brokenRules, declaredFilters(operation));
  return ok(json(200, paginate(records, input.query, request, tenant.brokenRules)));
};

const getInstitution: Handler = async ({ input, tenant }) => {
  const found = institutionRecords[tenant.environment].find((record) => record.id === input.path.id);
  return found
    ? ok(json(200, found))
    : err(apiError('not_found', { message: `No institution ${input.path.id}.` }));
};

const getConsent: Handler = async ({ input, tenant }) => {
  const consent = await findOr404(tenant, CONSENTS, input.path.id!);
  return consent.ok ? ok(json(200, publicView(consent.value))) : consent;
};

/** TOKEN-WIDGET (choice: 201, 600 s): opaque and not kept; the simulator serves no widget to check it. */
export const WIDGET_TOKEN_SECONDS = 600;
const createWidgetToken: Handler = async ({ tenant }) => {
  const access = `wa_${tenant.ids.hex(40)}`;
  // brokenRules TOKEN-WIDGET: a widget session that lasts a day, not a short-lived one.
  const expiresIn = tenant.brokenRules.has('TOKEN-WIDGET') ? 86_400 : WIDGET_TOKEN_SECONDS;
  return ok(json(201, { access, refresh: `wr_${tenant.ids.hex(40)}`, expires_in: expiresIn }));
};

export const institutionHandlers: [string, Handler][] = [
  ['getApiRoot', getApiRoot],
  ['listInstitutions', listInstitutions],
  ['getInstitution', getInstitution],
  ['listConsents', collectionList(CONSENTS)],
  ['getConsent', getConsent],
  ['createWidgetToken', createWidgetToken],
];
