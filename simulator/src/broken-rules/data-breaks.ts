/** The data-resource rules broken the way real servers get them wrong. */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { isDataCollection } from '../core/collections.js';
import type { RulePolicy } from '../core/rule-policy.js';
import { DAY_MS } from '../core/time.js';
import {
  type BreakContext,
  type Edges,
  ignoreQuery,
  type RuleBreaks,
  rewriteInput,
  wrapHandlers,
} from './edges.js';

const data = (policy: RulePolicy, change: Partial<RulePolicy['data']>): RulePolicy => ({
  ...policy,
  data: { ...policy.data, ...change },
});

/** The detail operations of the data resources: GET `P/{id}/` of a data collection `P`. */
const dataDetails = (operations: readonly ApiOperation[]) =>
  operations
    .filter((o) => o.method === 'GET' && o.path.endsWith('{id}/'))
    .filter((o) => isDataCollection(o.path.slice(0, -'{id}/'.length)))
    .map((o) => o.operationId);

/** DATA-DETAIL broken: the record as a read a day before had it (its `collected_at` a day earlier). */
function aDayStale(body: unknown): unknown {
  const view = body as { collected_at?: unknown };
  const read = typeof view.collected_at === 'string' ? Date.parse(view.collected_at) : Number.NaN;
  return Number.isNaN(read) ? body : { ...view, collected_at: new Date(read - DAY_MS).toISOString() };
}

/**
 * The retrievals that refuse a range ending before its start (`x-ordered-range`), with the members it
 * names: those RANGE-365 governs (`x-rules`) or the others (DATA-RETRIEVE).
 */
function orderedRetrievals(operations: readonly ApiOperation[], ofRange365: boolean) {
  return operations.flatMap((operation) => {
    const ordered = operation.raw['x-ordered-range'] as { from?: unknown; to?: unknown } | undefined;
    const rules = operation.raw['x-rules'];
    const range365 = Array.isArray(rules) && rules.includes('RANGE-365');
    if (typeof ordered?.from !== 'string' || typeof ordered.to !== 'string' || range365 !== ofRange365)
      return [];
    return [{ operationId: operation.operationId, from: ordered.from, to: ordered.to }];
  });
}

const before = (to: unknown, from: unknown) =>
  typeof to === 'string' && typeof from === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(to)
    ? to < from
    : Number(to) < Number(from);

/** A range given end first served as if given the right way round: the two members swapped. */
const swappingReversedRanges =
  (ofRange365: boolean) =>
  (edges: Edges, { operations }: BreakContext): Edges =>
    orderedRetrievals(operations, ofRange365).reduce(
      (wrapped, { operationId, from, to }) =>
        rewriteInput(wrapped, [operationId], (input) => {
          const body = input.body as Record<string, unknown> | null;
          if (typeof body !== 'object' || body === null || !before(body[to], body[from])) return input;
          return { ...input, body: { ...body, [from]: body[to], [to]: body[from] } };
        }),
      edges,
    );

/** TAX-RETURNS-MIXED: the `type` of a yearly return (the monthly ones' is `monthly`). */
const YEARLY = 'yearly';

export const DATA_BREAKS = {
  'DATA-RETRIEVE': {
    description: 'the retrieval answers its records but never stores them',
    policy: (policy) => data(policy, { retrievalsStore: false }),
    variants: {
      'reversed-range-swapped': {
        description: 'a range whose end lies before its start served with the two swapped, not refused',
        edges: swappingReversedRanges(false),
      },
    },
  },
  'DATA-DETAIL': {
    description: 'a stale cache in front of the detail: the record as a read a day earlier had it',
    edges: (edges, { operations }) =>
      wrapHandlers(edges, dataDetails(operations), (handler) => async (context) => {
        const answered = await handler(context);
        if (!answered.ok || answered.value.status !== 200) return answered;
        return { ok: true, value: { ...answered.value, body: aDayStale(answered.value.body) } };
      }),
  },
  'DATA-DELETE': {
    description: 'DELETE answers 204 but the record stays',
    policy: (policy) => data(policy, { deletionsRemove: false }),
  },
  'ACCOUNT-DELETE-CASCADE': {
    description: 'deleting an account leaves its transactions and owners',
    policy: (policy) => data(policy, { deletionsCascade: false }),
  },
  'EXCHANGE-HISTORY': {
    description: "the default exchange range is 90 days (another resource's default), not 365",
    policy: (policy) => data(policy, { historyDefaultRangeDays: 90 }),
  },
  'RANGE-365': {
    description: 'no range limit: ranges over 365 days are served',
    policy: (policy) => data(policy, { rangeLimited: false }),
    variants: {
      'reversed-range-swapped': {
        description:
          'an invoice range whose end lies before its start served with the two swapped, not refused',
        edges: swappingReversedRanges(true),
      },
    },
  },
  'TAX-RETENTIONS-500': {
    description: 'the 500-per-period cap not applied',
    policy: (policy) => data(policy, { recordsPerPeriodCapped: false }),
  },
  'TAX-RETURNS-MIXED': {
    description: 'the `type` asked for is ignored: both kinds come back',
    policy: (policy) => data(policy, { retrievalsReadKind: false }),
    variants: {
      'yearly-only': {
        description: 'the tax-return list reads the yearly returns only: monthly ones are never listed',
        edges: (edges) =>
          rewriteInput(edges, ['listTaxReturns'], (input) => ({
            ...input,
            query: { ...input.query, type: YEARLY },
          })),
      },
    },
  },
  'EMPLOYMENT-METRICS-PREREQ': {
    description: 'metrics served without a prior employment record retrieval',
    policy: (policy) => data(policy, { derivedNeedParents: false }),
  },
  'INVOICE-CANCELLED': {
    description: 'the invoice `status` filter ignored: every invoice of the link is listed',
    edges: (edges) => ignoreQuery(edges, ['listInvoices'], 'status'),
  },
} satisfies Record<string, RuleBreaks>;
