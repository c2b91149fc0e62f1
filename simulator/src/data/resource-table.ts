/**
 * The small, hand-written part of each data resource's description: what the document cannot say (how
 * many records an institution holds and how they spread over time). Everything else comes from the
 * document (`resource-catalogue.ts`). A collection the document adds later without a row here is served
 * with `DEFAULT_ROW` at once.
 */

/**
 * How records spread over time. `once`: a fixed set per link (and parent); `day`/`month`/`year`: a set
 * per calendar period, so any requested range reads the same records for the same period (determinism
 * per link whatever the order of requests).
 */
export type BucketKind = 'once' | 'day' | 'month' | 'year';

export interface ResourceRow {
  readonly bucket: BucketKind;
  /** Expected records per bucket (and parent); a fraction gives one more record with that probability. */
  readonly perBucket: number;
  /** Categories of the parent accounts the resource reads (choice, from the spec's conventions table). */
  readonly accountCategories?: readonly string[];
  /** Per value of the request's `type`: its own bucket (yearly and monthly tax returns). */
  readonly bucketByType?: Readonly<Record<string, BucketKind>>;
  /**
   * `match`: the `type` value picks the examples (their schemas differ: TAX-RETURNS-MIXED); default
   * `set`: the value is written over any example (a direction that nothing else in the record depends on).
   */
  readonly typeMode?: 'match' | 'set';
  /**
   * Records that summarise several accounts of the link (not one parent): the member at `path`
   * (`accounts[]`, `income_streams[].account_id`) names the link's accounts of these categories (all
   * when absent), read as a parent is.
   */
  readonly namesAccounts?: { readonly path: string; readonly categories?: readonly string[] };
  /** A catalogue feature the link's institution must have (EMPLOYMENT-METRICS-PREREQ). */
  readonly feature?: 'employment_metrics';
  /**
   * One record per link, kind and period (period-identity.ts): a record retrieved again keeps the stored
   * one's id, and a daily refresh finds the latest closed month's record of kind `newKind` the link lacks.
   */
  readonly onePerPeriod?: { readonly newKind: string };
  /** Records deleted with one of this resource's records: in `path`, those whose `by` field names it. */
  readonly cascade?: readonly { readonly path: string; readonly by: 'account' | 'link' }[];
}

export const DEFAULT_ROW: ResourceRow = { bucket: 'once', perBucket: 1 };

const CHECKING_SAVINGS = ['CHECKING_ACCOUNT', 'SAVINGS_ACCOUNT'];

export const RESOURCE_TABLE: Readonly<Record<string, ResourceRow>> = {
  '/api/owners/': { bucket: 'once', perBucket: 1 },
  // One per example kind: checking, savings, credit card (records/resource-hints.ts).
  '/api/accounts/': {
    bucket: 'once',
    perBucket: 3,
    // ACCOUNT-DELETE-CASCADE: the account's transactions and its owner information go with it. Owners
    // belong to the link, not to one account (the owner owns every account of the link), so the link's
    // owner records go (choice).
    cascade: [
      { path: '/api/transactions/', by: 'account' },
      { path: '/api/owners/', by: 'link' },
    ],
  },
  // One balance per account and day of retrieval: a retrieval later that day replaces it (choice).
  '/api/br/balances/': { bucket: 'day', perBucket: 1, accountCategories: CHECKING_SAVINGS },
  '/api/br/exchanges/': { bucket: 'day', perBucket: 0.04 },
  '/api/transactions/': { bucket: 'day', perBucket: 1.5 },
  '/api/bills/': { bucket: 'month', perBucket: 1, accountCategories: ['CREDIT_CARD'] },
  '/api/br/investments/': { bucket: 'once', perBucket: 3 },
  '/api/br/investment-transactions/': { bucket: 'day', perBucket: 0.1 },
  '/api/br/employments/': { bucket: 'once', perBucket: 2 },
  '/api/employment-records/': { bucket: 'once', perBucket: 1 },
  '/api/mx/current-employments/': { bucket: 'once', perBucket: 1 },
  // INVOICE-CANCELLED: the examples' statuses (Vigente 4 : Cancelado 1, resource-hints.ts) mix in every direction.
  '/api/invoices/': { bucket: 'day', perBucket: 0.6 },
  '/api/tax-compliance-status/': { bucket: 'once', perBucket: 1 },
  // TAX-RETURNS-MIXED: one yearly return per closed year, one monthly return per closed month; a return
  // is the one of its link, kind and period.
  '/api/tax-returns/': {
    bucket: 'year',
    perBucket: 1,
    typeMode: 'match',
    bucketByType: { yearly: 'year', monthly: 'month' },
    onePerPeriod: { newKind: 'monthly' },
  },
  // TAX-RETENTIONS-500: enough retentions (about 2 a day) that a year-long period holds more than 500.
  '/api/tax-retentions/': { bucket: 'day', perBucket: 2 },
  '/api/tax-status/': { bucket: 'once', perBucket: 1 },
  '/api/financial-statements/': { bucket: 'year', perBucket: 1 },
  '/api/cl/invoices/': { bucket: 'day', perBucket: 0.6 },
  '/api/cl/tax-status/': { bucket: 'once', perBucket: 1 },
  '/api/cl/debt-reports/': { bucket: 'once', perBucket: 1 },
  // One income record per link; its streams arrive in the checking and savings accounts.
  '/api/incomes/': {
    bucket: 'once',
    perBucket: 1,
    namesAccounts: { path: 'income_streams[].account_id', categories: CHECKING_SAVINGS },
  },
  '/api/recurring-expenses/': {
    bucket: 'once',
    perBucket: 2,
    accountCategories: [...CHECKING_SAVINGS, 'CREDIT_CARD'],
  },
  '/api/risk-insights/': { bucket: 'once', perBucket: 1, namesAccounts: { path: 'accounts[]' } },
  '/api/employment-metrics/': { bucket: 'once', perBucket: 1, feature: 'employment_metrics' },
};
