/**
 * The catalogue of breakable rules: every server rule ID of the rule catalogue (all but CLIENT-*), with
 * the way a real server gets it wrong. `--break RULE-ID` (and `createSimulator({ brokenRules })`) turns
 * that fault on, so the conformance suite can be shown to catch it (the teeth matrix in
 * property-tests/tests/teeth/). Each break is a realistic mistake, small and local, never a crash.
 */

/** Rule ID -> the realistic break, one line (the README's teeth matrix shows the same lines). */
export const BREAKABLE_RULES = {
  // Cross-cutting
  'AUTH-BASIC': 'checks that the key id exists, not its secret: a wrong password is let in',
  'AUTH-ENV-KEYS': 'one key table for both environments: a key of the other environment is let in',
  'AUTH-TENANT': 'queries not scoped by API key: every key reads, changes and deletes one shared account',
  'ERR-BODY': 'the framework\'s default error renderer: `{"detail": ...}`, not the error array',
  'ERR-REQUIRED': "a missing required member reported with the validator's generic code `invalid`",
  'ERR-404': 'an unknown id in the path answered 400 `invalid` (taken for a bad parameter)',
  'ERR-405': 'a router that matches method and path together: an undeclared method gets 404',
  'ERR-500-408': "500 and 408 served as the framework's plain-text error page",
  'RESP-REQUIRED-NULLABLE': 'a serializer that omits null members (omitempty)',
  'RESP-DEPRECATED': 'deprecated members served from their old columns: `bank_product_id` as a number',
  'PAGE-DEFAULT': '`next` and `previous` built from `page` and `page_size` alone, without the filters',
  'PAGE-MAX': '`page` and `page_size` parsed with parseInt: `1.5` and `10e` served as 1 and 10',
  'PAGE-NAV': 'an offset counted from 1: the first record of every list is never served',
  'FILTER-RANGE': "the range's upper bound compared exclusively (`<`, not `<=`)",
  'FILTER-IN': '`__in` keeps only the first value of its list',
  'FILTER-LOOKUP': '`__gt` and `__lt` compared inclusively, as `__gte` and `__lte`',
  'LIST-LINK-REQUIRED': '`link` optional on every list: without it, every link of the key is listed',
  'API-ROOT': 'GET /api/ exempt from authentication (a health check): 200 without credentials',
  'VERSION-NO-PATH': 'a router that drops a version segment: `/v1/api/...` served like `/api/...`',
  // Links
  'LINK-REGISTER': "link registration answers 200 (the framework's default), not 201",
  'LINK-MFA-428': 'the MFA token is never compared: any token resumes a paused request',
  'LINK-ACCESS-MODE-UP': 'single -> recurrent stored, but the next-day historical update never scheduled',
  'LINK-ACCESS-MODE-DOWN': 'recurrent -> single also runs a historical update (any mode change does)',
  'LINK-PATCH-NO-UPDATE': 'every PATCH of a recurrent link runs a historical update the next day',
  'LINK-INVALID-CREDENTIALS': 'the event is sent but the link is left `valid` after the refused login',
  'LINK-TOKEN-REQUIRED': 'the `token_required` event sent with a `webhook_id`, like every other event',
  'LINK-PUT-CREDENTIALS': 'new credentials stored, the link left `invalid` or `token_required`',
  'LINK-DELETE-SYNC': 'the link row deleted, its data left behind (no cascade)',
  'LINK-DELETE-ASYNC': '`X-Service-Request-Mode: async` never read: the link deleted at once, 204',
  'LINK-REFRESH-202': "the refresh's `fetch_resources` saved on the link",
  'LINK-REFRESH-COOLDOWN': 'no cooldown: a second refresh within 10 minutes is accepted',
  'DELETE-RATE-LIMIT': 'no deletion rate limit',
  'TOKEN-WIDGET': 'a widget token that lasts a day (expires_in 86400), not a short-lived one',
  // Data resources
  'DATA-RETRIEVE': 'the retrieval answers its records but never stores them',
  'DATA-DETAIL': 'a stale cache in front of the detail: the record as a read a day earlier had it',
  'DATA-DELETE': 'DELETE answers 204 but the record stays',
  'ACCOUNT-DELETE-CASCADE': 'deleting an account leaves its transactions and owners',
  'EXCHANGE-HISTORY': "the default exchange range is 90 days (another resource's default), not 365",
  'RANGE-365': 'no range limit: ranges over 365 days are served',
  'TAX-RETENTIONS-500': 'the 500-per-period cap not applied',
  'TAX-RETURNS-MIXED': 'the `type` asked for is ignored: both kinds come back',
  'EMPLOYMENT-METRICS-PREREQ': 'metrics served without a prior employment record retrieval',
  'INVOICE-CANCELLED': 'the invoice `status` filter ignored: every invoice of the link is listed',
  // Events (webhooks)
  'WEBHOOK-SHAPE': 'deliveries without `webhook_id` (kept only in the event log)',
  'WEBHOOK-BEARER': 'deliveries without the configured bearer token',
  'WEBHOOK-RETRY': 'off-by-one: four repetitions of a failed delivery, not five',
  'WEBHOOK-RECURRENT-ONLY': 'the daily refresh sends `new_*_available` to single links too',
  'WEBHOOK-SANDBOX': 'the sandbox check forgotten on LINK events: sandbox sends them',
  'WEBHOOK-HISTORICAL': 'owners left out of the banking historical update',
  'WEBHOOK-DAILY': '`new_*_available` counts every stored record, not the new ones',
  'WEBHOOK-FOLLOW-UP': '`last_transaction_date` of the event a day late (a date taken in another time zone)',
  // Payments (Brazil)
  'PAY-VERSION-HEADER': 'the detail read ignores the version header: customers and accounts always in V1',
  'PAY-AUTH-V2-REQUIRED': 'payment authorizations accepted without the V2 header (V2 assumed)',
  'PAY-AUTH-AUTHORIZED': 'the authorization becomes AUTHORIZED but its status event is never sent',
  'PAY-AUTH-CANCEL-CUTOFF': "the authorization's cancel cutoff computed in UTC, not GMT-3",
  'PAY-AUTH-CHARGE-CANCEL-CUTOFF': "a charge's cancel cutoff computed in UTC, not GMT-3",
  'PAY-CHARGE-RETRY': 'retry accepted on any charge, not only a failed one',
  'PAY-INTENT-CONFIGS': 'a payer created in the request is refused (only registered payers work)',
  'PAY-INTENT-PIX-PATCH': 'a completed Pix intent can be completed again',
  'PAY-INTENT-CANCEL-CUTOFF': 'no cancel cutoff for payment intents',
  'PAY-BANK-ACCOUNT-DUP': 'deactivated bank accounts still count in the duplicate check',
  'PAY-ENROLLMENT': 'the enrollment list ignores its `status` filter',
  'PAY-SANDBOX': 'payment initiation left open in the sandbox',
} as const satisfies Record<string, string>;

export type BreakableRuleId = keyof typeof BREAKABLE_RULES;

/** The rules a simulator breaks on purpose (DESIGN.md); typed, so a switch names a known rule. */
export type BrokenRules = ReadonlySet<BreakableRuleId>;

export const BREAKABLE_RULE_IDS = Object.keys(BREAKABLE_RULES) as BreakableRuleId[];

export const isBreakableRule = (id: string): id is BreakableRuleId => Object.hasOwn(BREAKABLE_RULES, id);

/** An ID `--break` does not know; the message lists the known ones on one line. */
export class UnknownRuleError extends Error {
  override name = 'UnknownRuleError';
}

/** Checks the IDs against the catalogue; throws UnknownRuleError naming the unknown and the known ones. */
export function parseBrokenRules(ids: readonly string[]): BrokenRules {
  const unknown = ids.filter((id) => !isBreakableRule(id));
  if (unknown.length > 0) {
    const which = unknown.map((id) => `"${id}"`).join(', ');
    throw new UnknownRuleError(
      `--break: unknown rule ${which}; breakable rules: ${BREAKABLE_RULE_IDS.join(', ')}`,
    );
  }
  return new Set(ids as BreakableRuleId[]);
}
