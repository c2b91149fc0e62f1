/** Test support: links at each kind of institution of the catalogue, and the retrieval bodies of every resource. */
import type { CheckedSimulator } from './contract-checked-simulator.js';

export type LinkKind =
  | 'bank'
  | 'mfaBank'
  | 'brEmployment'
  | 'metrics'
  | 'mxEmployment'
  | 'sandbox'
  | 'mxFiscal'
  | 'clFiscal';

const REGISTRATIONS: Record<LinkKind, Record<string, string>> = {
  bank: { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' },
  mfaBank: {
    institution: 'tokenbank_br_business',
    username: '12345678000190',
    password: 'secret',
    token: '123456',
  },
  brEmployment: { institution: 'ofinss_br_employment', username: '76109277673', password: 'secret' },
  metrics: { institution: 'ofimss_mx_employment', username: 'GOMA850315HDFNRN09' },
  mxEmployment: { institution: 'ofissste_mx_employment', username: 'GOMA850315HDFNRN09' },
  sandbox: { institution: 'ofsandbox_mx_employment', username: 'GOMA850315HDFNRN09' },
  mxFiscal: { institution: 'ofsat_mx_fiscal', username: 'GOMA850315AB1', password: 'ciec' },
  clFiscal: { institution: 'ofsii_cl_fiscal', username: '12345678-9', password: 'clave' },
};

/** Registers a link (201) and returns its id. */
export async function registerLink(sim: CheckedSimulator, kind: LinkKind, as?: string): Promise<string> {
  const created = await sim.call('POST', '/api/links/', { body: REGISTRATIONS[kind], ...(as && { as }) });
  if (created.status !== 201) throw new Error(`registering a ${kind} link: ${created.status}`);
  return created.body.id as string;
}

/** The test clock's today is 2026-11-02 (FIXED_NOW). */
export const LAST_MONTH = { date_from: '2026-10-01', date_to: '2026-10-31' };

/** Every data resource: the link it needs and the body beyond `link` (listed in the document's order of the spec table). */
export const RETRIEVALS: readonly { path: string; kind: LinkKind; body?: Record<string, unknown> }[] = [
  { path: '/api/owners/', kind: 'bank' },
  { path: '/api/accounts/', kind: 'bank' },
  { path: '/api/br/balances/', kind: 'bank' },
  { path: '/api/br/exchanges/', kind: 'bank' },
  { path: '/api/transactions/', kind: 'bank', body: LAST_MONTH },
  { path: '/api/bills/', kind: 'bank', body: { date_from: '2026-01-01', date_to: '2026-10-31' } },
  { path: '/api/br/investments/', kind: 'bank' },
  {
    path: '/api/br/investment-transactions/',
    kind: 'bank',
    body: { date_from: '2026-01-01', date_to: '2026-10-31' },
  },
  { path: '/api/br/employments/', kind: 'brEmployment' },
  { path: '/api/employment-records/', kind: 'metrics' },
  { path: '/api/mx/current-employments/', kind: 'metrics' },
  { path: '/api/invoices/', kind: 'mxFiscal', body: { ...LAST_MONTH, type: 'INFLOW' } },
  { path: '/api/tax-compliance-status/', kind: 'mxFiscal' },
  { path: '/api/tax-returns/', kind: 'mxFiscal', body: { year_from: 2025, year_to: 2026 } },
  { path: '/api/tax-retentions/', kind: 'mxFiscal', body: { ...LAST_MONTH, type: 'OUTFLOW' } },
  { path: '/api/tax-status/', kind: 'mxFiscal' },
  {
    path: '/api/financial-statements/',
    kind: 'mxFiscal',
    body: { date_from: '2023-01-01', date_to: '2026-10-31' },
  },
  { path: '/api/cl/invoices/', kind: 'clFiscal', body: { ...LAST_MONTH, type: 'INFLOW' } },
  { path: '/api/cl/tax-status/', kind: 'clFiscal' },
  { path: '/api/cl/debt-reports/', kind: 'clFiscal' },
  { path: '/api/incomes/', kind: 'bank' },
  { path: '/api/recurring-expenses/', kind: 'bank' },
  { path: '/api/risk-insights/', kind: 'bank' },
  // EMPLOYMENT-METRICS-PREREQ: after the employment records of the same link (above).
  { path: '/api/employment-metrics/', kind: 'metrics' },
];

/** DATA-RETRIEVE: the retrievals that answer the one record itself, as the provider does (not a list). */
export const ANSWERS_ONE: ReadonlySet<string> = new Set([
  '/api/tax-status/',
  '/api/tax-compliance-status/',
  '/api/incomes/',
]);

/** The records of a retrieval's answer: its list, or the one record it answers. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary record members; the harness validated them
export const recordsOf = (body: unknown): any[] => (Array.isArray(body) ? body : [body]);

/** POST `path` for `link` with the resource's body. */
export const retrieve = (
  sim: CheckedSimulator,
  path: string,
  link: string,
  body: Record<string, unknown> = {},
  as?: string,
) => sim.call('POST', path, { body: { link, ...body }, ...(as && { as }) });
