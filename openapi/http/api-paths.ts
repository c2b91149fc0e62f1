/**
 * The API's paths that more than one part names (the simulator keeps records under them, the suite and
 * Pact call them, the bridge reads them in traffic, the bench loads them), written once. A collection
 * is its list path, with the trailing slash the API requires.
 */
export const API_ROOT = '/api/';
export const LINKS = '/api/links/';
export const INSTITUTIONS = '/api/institutions/';
export const CONSENTS = '/api/consents/';
export const WIDGET_TOKEN = '/api/token/';
export const OWNERS = '/api/owners/';
export const ACCOUNTS = '/api/accounts/';
export const TRANSACTIONS = '/api/transactions/';
export const INVOICES = '/api/invoices/';
export const TAX_RETURNS = '/api/tax-returns/';
