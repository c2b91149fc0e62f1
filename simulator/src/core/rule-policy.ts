/**
 * The numbers and choices behind the rules, as values a tenant carries: behaviour code reads them
 * (`tenant.policy.links.refreshCooldownMs`), never a rule ID. The defaults are the specification's, read
 * from the document where it states them (`x-cooldown`, `x-rate-limit`, `x-cancel-cutoff`); a simulator
 * built to break a rule on purpose gets another value from the break catalogue (broken-rules/).
 */
import { type ApiDocument, createApiDocument } from '../../../openapi/document/api-document.js';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { isObject } from '../../../openapi/document/json.js';
import { MINUTE_MS } from './time.js';

/** A cancel cutoff: `time` at `utcOffset` on the day `daysBefore` the payment date (`x-cancel-cutoff`). */
export interface CancelCutoff {
  readonly time: string;
  readonly utcOffset: string;
  readonly daysBefore: number;
}

/** A deletion limit: at most `limit` deletions in a sliding window of `windowMs` (`x-rate-limit`). */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** How the one list machine filters and pages (PAGE-*, FILTER-*). */
export type ListPolicy = RulePolicy['lists'];

export interface RulePolicy {
  readonly lists: {
    /** PAGE-NAV: where a page's records start, counted from the page's first (0). */
    readonly firstRecordOffset: number;
    /** FILTER-RANGE: how `<field>__range`'s upper bound is compared. */
    readonly rangeUpperBound: 'inclusive' | 'exclusive';
    /** FILTER-LOOKUP: how `__gt` and `__lt` compare a value equal to their bound. */
    readonly strictBounds: 'exclusive' | 'inclusive';
    /** FILTER-IN: which values of an `__in` list count. */
    readonly inValues: 'all' | 'first';
    /** PAGE-DEFAULT: whether `next`/`previous` carry every parameter of the request, filters included. */
    readonly pageLinksKeepQuery: boolean;
    /** PAGE-DEFAULT: whether `next`/`previous` are absolute URLs (else a path and query only). */
    readonly pageLinksAbsolute: boolean;
    /** FILTER-LOOKUP: whether `__icontains` ignores case, as its `i` says. */
    readonly containsIgnoresCase: boolean;
  };
  readonly links: {
    /** LINK-REFRESH-COOLDOWN: how long a refreshed link refuses another refresh; null: never. */
    readonly refreshCooldownMs: number | null;
    /** LINK-REFRESH-202: whether a refresh's `fetch_resources` is stored on the link. */
    readonly refreshStoresFetchResources: boolean;
    /** LINK-DELETE-SYNC: whether a deleted link's data goes with it. */
    readonly deletionTakesData: boolean;
    /** LINK-PUT-CREDENTIALS: whether new credentials bring a link back to `valid`. */
    readonly newCredentialsRevalidate: boolean;
    /** LINK-INVALID-CREDENTIALS: whether a refused daily login sets the link `invalid`. */
    readonly refusedLoginInvalidates: boolean;
    /** LINK-ACCESS-MODE-UP/-DOWN, LINK-PATCH-NO-UPDATE: the PATCHes followed by a historical update the next day. */
    readonly nextDayUpdateAfter: {
      readonly upgrade: boolean;
      readonly downgrade: boolean;
      readonly recurrentPatch: boolean;
    };
    /** LINK-MFA-428: whether a resumed request's token is compared with the institution's. */
    readonly mfaTokenChecked: boolean;
    /** LINK-MFA-428: whether a session stays open after a wrong token (the right one sent next resumes). */
    readonly mfaSessionSurvivesWrongToken: boolean;
    /** TOKEN-WIDGET: the lifetime of a widget access token, in seconds. */
    readonly widgetTokenSeconds: number;
    /** WEBHOOK-RECURRENT-ONLY: whether the daily refresh also refreshes single links. */
    readonly dailyRefreshSingleLinks: boolean;
    /** WEBHOOK-DAILY: whether `new_*_available` counts only the records new since the last refresh. */
    readonly dailyCountsNewOnly: boolean;
  };
  /** DELETE-RATE-LIMIT: the deletion limits by operationId (`x-rate-limit`); an operation absent has none. */
  readonly deletionLimits: Readonly<Record<string, RateLimit>>;
  readonly data: {
    /** DATA-RETRIEVE: whether a retrieval stores the records it answers (unless `save_data` is false). */
    readonly retrievalsStore: boolean;
    /** DATA-DELETE: whether DELETE of a record removes it. */
    readonly deletionsRemove: boolean;
    /** ACCOUNT-DELETE-CASCADE: whether a deleted record's dependants (an account's transactions, owners) go too. */
    readonly deletionsCascade: boolean;
    /** RANGE-365: whether a retrieval's range is held to its resource's `x-max-range-days`. */
    readonly rangeLimited: boolean;
    /** EXCHANGE-HISTORY: the default range of a resource that keeps a history; null: its `x-default-range-days`. */
    readonly historyDefaultRangeDays: number | null;
    /** TAX-RETENTIONS-500: whether `x-max-records-per-period` caps a retrieval. */
    readonly recordsPerPeriodCapped: boolean;
    /** TAX-RETURNS-MIXED: whether a retrieval of a resource of several kinds reads the kind asked for. */
    readonly retrievalsReadKind: boolean;
    /** EMPLOYMENT-METRICS-PREREQ: whether a derived resource needs its parents retrieved first. */
    readonly derivedNeedParents: boolean;
  };
  readonly webhooks: {
    /** WEBHOOK-RETRY: how many times an unacknowledged delivery is repeated. */
    readonly deliveryRepetitions: number;
    /** WEBHOOK-SANDBOX: whether the sandbox sends LINK events. */
    readonly linkEventsInSandbox: boolean;
  };
  readonly payments: {
    /** PAY-*-CANCEL-CUTOFF: the cutoffs by operationId (`x-cancel-cutoff`); an operation absent has none. */
    readonly cancelCutoffs: Readonly<Record<string, CancelCutoff>>;
    /** PAY-CHARGE-RETRY: whether only a failed charge may be retried. */
    readonly retryOnlyFailed: boolean;
    /** PAY-INTENT-PIX-PATCH: whether a completed intent refuses to be completed again. */
    readonly intentCompletesOnce: boolean;
    /** PAY-BANK-ACCOUNT-DUP: whether deactivated bank accounts are left out of the duplicate check. */
    readonly duplicatesIgnoreInactive: boolean;
    /** PAY-SANDBOX: whether the sandbox initiates payments. */
    readonly initiationInSandbox: boolean;
  };
}

/** WEBHOOK-RETRY: "repeated five times". */
export const DELIVERY_REPETITIONS = 5;
/** TOKEN-WIDGET: a short-lived token, ten minutes (choice). */
export const WIDGET_TOKEN_SECONDS = 600;

/** Each operation's `extension` object, by operationId, where the document has one. */
function extensionsOf(document: ApiDocument, extension: string): [string, Record<string, unknown>][] {
  return document.operations.flatMap((operation) => {
    const value = operation.raw[extension];
    return isObject(value) ? [[operation.operationId, value] as [string, Record<string, unknown>]] : [];
  });
}

function number(value: unknown, where: string): number {
  if (typeof value !== 'number') throw new Error(`The document's ${where} is not a number`);
  return value;
}

function cancelCutoffs(document: ApiDocument): Record<string, CancelCutoff> {
  const cutoffs: Record<string, CancelCutoff> = {};
  for (const [operationId, raw] of extensionsOf(document, 'x-cancel-cutoff')) {
    const { time, utc_offset: utcOffset, days_before: daysBefore } = raw;
    if (typeof time !== 'string' || typeof utcOffset !== 'string')
      throw new Error(`${operationId} has no complete x-cancel-cutoff`);
    cutoffs[operationId] = {
      time,
      utcOffset,
      daysBefore: number(daysBefore, `${operationId} x-cancel-cutoff`),
    };
  }
  return cutoffs;
}

function deletionLimits(document: ApiDocument): Record<string, RateLimit> {
  const limits: Record<string, RateLimit> = {};
  for (const [operationId, raw] of extensionsOf(document, 'x-rate-limit')) {
    const where = `${operationId} x-rate-limit`;
    limits[operationId] = {
      limit: number(raw.limit, where),
      windowMs: number(raw.window_seconds, where) * 1000,
    };
  }
  return limits;
}

/** The specification's policy, its numbers read from the document. */
export function defaultRulePolicy(document: ApiDocument): RulePolicy {
  const cooldown = extensionsOf(document, 'x-cooldown').find(([id]) => id === 'refreshLink')?.[1];
  return {
    lists: {
      firstRecordOffset: 0,
      rangeUpperBound: 'inclusive',
      strictBounds: 'exclusive',
      inValues: 'all',
      pageLinksKeepQuery: true,
      pageLinksAbsolute: true,
      containsIgnoresCase: true,
    },
    links: {
      refreshCooldownMs: cooldown
        ? number(cooldown.seconds, 'refreshLink x-cooldown') * 1000
        : 10 * MINUTE_MS,
      refreshStoresFetchResources: false,
      deletionTakesData: true,
      newCredentialsRevalidate: true,
      refusedLoginInvalidates: true,
      nextDayUpdateAfter: { upgrade: true, downgrade: false, recurrentPatch: false },
      mfaTokenChecked: true,
      mfaSessionSurvivesWrongToken: true,
      widgetTokenSeconds: WIDGET_TOKEN_SECONDS,
      dailyRefreshSingleLinks: false,
      dailyCountsNewOnly: true,
    },
    deletionLimits: deletionLimits(document),
    data: {
      retrievalsStore: true,
      deletionsRemove: true,
      deletionsCascade: true,
      rangeLimited: true,
      historyDefaultRangeDays: null,
      recordsPerPeriodCapped: true,
      retrievalsReadKind: true,
      derivedNeedParents: true,
    },
    webhooks: { deliveryRepetitions: DELIVERY_REPETITIONS, linkEventsInSandbox: false },
    payments: {
      cancelCutoffs: cancelCutoffs(document),
      retryOnlyFailed: true,
      intentCompletesOnce: true,
      duplicatesIgnoreInactive: true,
      initiationInSandbox: false,
    },
  };
}

let bundled: RulePolicy | undefined;

/** The specification's policy, from the bundled API document (read once). */
export function specRulePolicy(): RulePolicy {
  bundled ??= defaultRulePolicy(createApiDocument(readBundledDocument('api')));
  return bundled;
}
