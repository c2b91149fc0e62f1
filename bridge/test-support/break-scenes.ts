/**
 * Test support: which scenes of the sample session show each breakable rule's break in passing
 * traffic (the break matrix runs only these against a simulator with that rule broken). The rules
 * passing traffic cannot show are bridge/src/checks/unseen-rules.ts's, and have no scene here.
 */
export const BREAK_SCENES: Readonly<Record<string, readonly string[]>> = {
  'AUTH-BASIC': ['mistakes'],
  'AUTH-TENANT': ['tenants'],
  'ERR-BODY': ['mistakes'],
  'ERR-REQUIRED': ['mistakes'],
  'ERR-404': ['mistakes'],
  'ERR-405': ['mistakes'],
  'ERR-500-408': ['sessions'],
  'RESP-REQUIRED-NULLABLE': ['reads'],
  'RESP-DEPRECATED': ['reads'],
  'PAGE-DEFAULT': ['reads'],
  'PAGE-MAX': ['reads'],
  'PAGE-NAV': ['reads'],
  'FILTER-RANGE': ['reads'],
  'FILTER-IN': ['reads'],
  'FILTER-LOOKUP': ['reads'],
  'LIST-LINK-REQUIRED': ['mistakes'],
  'API-ROOT': ['mistakes'],
  'VERSION-NO-PATH': ['mistakes'],
  'LINK-REGISTER': ['refreshes'],
  'LINK-PUT-CREDENTIALS': ['newCredentials'],
  'LINK-DELETE-SYNC': ['linkDeletions'],
  'LINK-DELETE-ASYNC': ['linkDeletions'],
  'LINK-REFRESH-202': ['refreshes'],
  'LINK-REFRESH-COOLDOWN': ['refreshes'],
  'DELETE-RATE-LIMIT': ['deletions'],
  'TOKEN-WIDGET': ['sessions'],
  'DATA-RETRIEVE': ['reads'],
  'DATA-DETAIL': ['reads'],
  'DATA-DELETE': ['deletions'],
  'ACCOUNT-DELETE-CASCADE': ['deletions'],
  'RANGE-365': ['fiscal'],
  'TAX-RETENTIONS-500': ['fiscal'],
  'TAX-RETURNS-MIXED': ['fiscal'],
  'EMPLOYMENT-METRICS-PREREQ': ['employment'],
  'INVOICE-CANCELLED': ['fiscal'],
  'PAY-VERSION-HEADER': ['payers'],
  'PAY-AUTH-V2-REQUIRED': ['authorizations'],
  'PAY-CHARGE-RETRY': ['authorizations'],
  'PAY-INTENT-CONFIGS': ['intents'],
  'PAY-INTENT-PIX-PATCH': ['intents'],
  'PAY-BANK-ACCOUNT-DUP': ['payers'],
  'PAY-ENROLLMENT': ['enrollments'],
  'PAY-SANDBOX': ['sandboxPayments'],
};

/** Breaks whose scenes need a simulator of the sandbox environment. */
export const SANDBOX_BREAKS: ReadonlySet<string> = new Set(['PAY-SANDBOX']);
