/** API-ROOT, institutions (the simulated catalogue), consents and the connection widget's token. */
import { err, ok } from '../core/result.js';
import { apiError } from '../errors/api-error.js';
import { INSTITUTIONS, institutionRecord } from '../institutions/catalogue.js';
import type { StoredRecord } from '../store/store.js';
import { type Handler, json } from './handler.js';
import { findOr404, publicView } from './handler-support.js';
import { CONSENTS } from './link-consents.js';
import { collectionList, filterRecords, paginate } from './list-query.js';

const institutionRecords = INSTITUTIONS.map((entry) => institutionRecord(entry) as StoredRecord);

/** API-ROOT (choice): 200 to valid credentials; authentication already refused the others with 401. */
const getApiRoot: Handler = async ({ tenant }) =>
  ok(
    json(200, {
      service: 'Open Finance Data Aggregation and Payments API',
      version: '1.223.0',
      environment: tenant.environment,
    }),
  );

const listInstitutions: Handler = async ({ input, request, tenant }) => {
  const records = filterRecords(institutionRecords, input.query, tenant.brokenRules);
  return ok(json(200, paginate(records, input.query, request, tenant.brokenRules)));
};

const getInstitution: Handler = async ({ input }) => {
  const found = institutionRecords.find((record) => record.id === input.path.id);
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
  // brokenRules TOKEN-WIDGET: the access token alone, without its refresh token.
  if (tenant.brokenRules.has('TOKEN-WIDGET'))
    return ok(json(201, { access, expires_in: WIDGET_TOKEN_SECONDS }));
  return ok(json(201, { access, refresh: `wr_${tenant.ids.hex(40)}`, expires_in: WIDGET_TOKEN_SECONDS }));
};

export const institutionHandlers: [string, Handler][] = [
  ['getApiRoot', getApiRoot],
  ['listInstitutions', listInstitutions],
  ['getInstitution', getInstitution],
  ['listConsents', collectionList(CONSENTS)],
  ['getConsent', getConsent],
  ['createWidgetToken', createWidgetToken],
];
