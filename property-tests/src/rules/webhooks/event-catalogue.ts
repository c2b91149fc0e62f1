/**
 * The spec's Event catalogue as the webhook rules read it: which historical events a bank or a fiscal
 * (MX) link gets (WEBHOOK-HISTORICAL), and the `data` members each event carries, with their types.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { eventKey } from './webhook-schemas.js';

/** The config's fixtures the webhook rules register: a Brazilian bank and a Mexican fiscal institution. */
export type LinkKind = 'link' | 'fiscalMx';
export const LINK_KINDS: readonly LinkKind[] = ['link', 'fiscalMx'];
/** How messages name a link of each kind. */
export const KIND_NAMES: Record<LinkKind, string> = { link: 'bank', fiscalMx: 'fiscal MX' };

/** `integer` >= 0; `date` YYYY-MM-DD or null (none); `year` integer or null; `ids` a non-empty id list. */
export type FieldType = 'integer' | 'date' | 'year' | 'string' | 'ids' | 'object';

export interface CatalogueEvent {
  type: string;
  code: string;
  /** The `fetch_resources` name whose historical load sends it. */
  resource?: string;
  data: Record<string, FieldType>;
}

const historical = (resource: string, code: string, data: Record<string, FieldType>): CatalogueEvent => ({
  type: resource,
  code,
  resource,
  data,
});

const INVOICE_DATES = {
  total_invoices: 'integer',
  first_invoice_date: 'date',
  last_invoice_date: 'date',
} as const;

/** WEBHOOK-HISTORICAL: accounts, transactions, owners (bank); invoices, tax returns, tax status (fiscal). */
export const HISTORICAL_EVENTS: Record<LinkKind, readonly CatalogueEvent[]> = {
  link: [
    historical('ACCOUNTS', 'historical_update', { total_accounts: 'integer' }),
    historical('TRANSACTIONS', 'historical_update', {
      total_transactions: 'integer',
      total_inflow_transactions: 'integer',
      total_outflow_transactions: 'integer',
      first_transaction_date: 'date',
      last_transaction_date: 'date',
    }),
    historical('OWNERS', 'historical_update', { total_owners: 'integer' }),
  ],
  fiscalMx: [
    historical('INVOICES', 'historical_inflow_update', INVOICE_DATES),
    historical('INVOICES', 'historical_outflow_update', INVOICE_DATES),
    historical('TAX_RETURNS', 'historical_update', {
      total_tax_returns: 'integer',
      first_tax_return_year: 'year',
      last_tax_return_year: 'year',
    }),
    historical('TAX_STATUS', 'historical_update', {
      total_tax_status: 'integer',
      last_status_change_date: 'date',
    }),
  ],
};

/** LINK-INVALID-CREDENTIALS, LINK-TOKEN-REQUIRED: the LINK events of a failed daily refresh. */
export const LINK_EVENTS = {
  invalid_credentials: { error_code: 'string', error_message: 'string', status: 'integer' },
  token_required: {
    error_code: 'string',
    error_message: 'string',
    status: 'integer',
    session: 'string',
    expiry: 'integer',
    token_generation_data: 'object',
  },
} as const satisfies Record<string, Record<string, FieldType>>;

/** WEBHOOK-RECURRENT-ONLY: the events that exist for single links too. */
export const SINGLE_LINK_EVENTS: readonly string[] = [
  'TRANSACTIONS transactions_updated',
  'TRANSACTIONS transactions_deleted',
];

/** The `fetch_resources` names whose historical loads send events, for a link kind. */
export const resourcesOf = (kind: LinkKind) => [
  ...new Set(HISTORICAL_EVENTS[kind].map((event) => event.resource ?? '')),
];

/** A `<type> <code>` key of a historical event (`historical_update`, `historical_inflow_update`...). */
export const isHistoricalKey = (key: string) => / historical_/.test(key);

/** The `<type> <code>` keys of the historical events of a link kind limited to `resources`. */
export function historicalKeys(kind: LinkKind, resources?: readonly string[]): string[] {
  return HISTORICAL_EVENTS[kind]
    .filter((event) => !resources || resources.includes(event.resource ?? ''))
    .map((event) => eventKey(event.type, event.code));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function fieldProblem(value: JsonValue | undefined, type: FieldType): string | undefined {
  if (value === undefined) return 'is missing';
  const ok = {
    integer: () => Number.isInteger(value) && (value as number) >= 0,
    date: () => value === null || (typeof value === 'string' && DATE.test(value)),
    year: () => value === null || Number.isInteger(value),
    string: () => typeof value === 'string',
    ids: () => Array.isArray(value) && value.length > 0 && value.every((id) => typeof id === 'string'),
    object: () => isObject(value),
  }[type]();
  return ok
    ? undefined
    : `is ${JSON.stringify(value)}, not ${type === 'ids' ? 'a list of ids' : `a ${type}`}`;
}

/** The members of `data` that are missing or of the wrong type, as `name is ...` lines. */
export function dataProblems(data: JsonValue | undefined, fields: Record<string, FieldType>): string[] {
  const object: JsonObject = isObject(data) ? data : {};
  return Object.entries(fields).flatMap(([name, type]) => {
    const problem = fieldProblem(object[name], type);
    return problem ? [`data.${name} ${problem}`] : [];
  });
}
