/**
 * The catalogue of client rules the judge grades (README "Judge your client"): each with the section of
 * the interface spec it comes from. The first four are the spec's own client rules; the others are the
 * client's side of a server rule (a limit, a session, a page, an event).
 */
export const CLIENT_RULES = [
  {
    rule: 'CLIENT-RETRY-5XX',
    title: 'A 50x is retried with exponential backoff: at most five retries, waits 3, 6, 12, 24, 48 s.',
    section: 'Errors / Retry rules 1',
  },
  {
    rule: 'CLIENT-NO-RETRY-4XX',
    title: 'A request answered with a 40x is not sent again unchanged.',
    section: 'Errors / Retry rules 2',
  },
  {
    rule: 'CLIENT-TOO-MANY-SESSIONS',
    title: 'The Too Many Sessions error (400 `too_many_sessions`) is retried like a 50x.',
    section: 'Errors / Retry rules 3',
  },
  {
    rule: 'CLIENT-NO-SECRETS',
    title:
      'The API key id and secret appear only in the Authorization header: never in a path, query or body.',
    section: 'Authentication 4',
  },
  {
    rule: 'CLIENT-REFRESH-COOLDOWN',
    title: 'After a 409, the link is not refreshed again before the minutes the message names have passed.',
    section: 'Limits (refresh cooldown); Errors / Status codes 409',
  },
  {
    rule: 'CLIENT-DELETE-RATE',
    title: 'After a 429, deletions in that collection wait for the window: no 429 follows a 429.',
    section: 'Limits (deletion rate); Errors / Status codes 429',
  },
  {
    rule: 'CLIENT-MFA-RESUME',
    title: 'A 428 is resumed with its session and link before the session expires, or abandoned.',
    section: 'States and transitions (MFA); Errors / Status codes 428',
  },
  {
    rule: 'CLIENT-PAGINATION-NEXT',
    title: 'Further pages are read through `next` as given, and no page past the last is requested.',
    section: 'Limits (page size); Endpoints / Conventions for data resources',
  },
  {
    rule: 'CLIENT-WEBHOOK-ACK',
    title: 'The webhook receiver answers every delivery with a 2xx within the delivery time-out.',
    section: 'Events / Configuration and delivery rules 3',
  },
  {
    rule: 'CLIENT-WEBHOOK-BEARER',
    title: 'With a bearer token configured, the receiver refuses a delivery without it.',
    section: 'Events / Configuration and delivery rules 1; Authentication 6',
  },
  {
    rule: 'CLIENT-WEBHOOK-DUPLICATE',
    title: 'The receiver accepts a repeated delivery of the same `webhook_id` (deliveries are repeated).',
    section: 'Events / Configuration and delivery rules 3',
  },
  {
    rule: 'CLIENT-WEBHOOK-FOLLOW-UP',
    title: 'After an acknowledged event, the client makes the follow-up read the event announces.',
    section: 'Events / Follow-up reads after an event (WEBHOOK-FOLLOW-UP)',
  },
] as const;

export type ClientRuleId = (typeof CLIENT_RULES)[number]['rule'];

export type Verdict = 'followed' | 'violated' | 'not_exercised';

/** `real`: retry waits judged on the machine's time; `order-only`: on order and count (faked timers). */
export type Timing = 'real' | 'order-only';

/** What one rule's judgement says, before the catalogue adds its title and section. */
export interface Judgement {
  verdict: Verdict;
  summary: string;
  evidence: string[];
}

export interface RuleVerdict extends Judgement {
  rule: ClientRuleId;
  title: string;
  section: string;
}

/** Evidence lists stay short: the first few lines and a count of the rest. */
export const EVIDENCE_LINES = 6;

export function judgement(verdict: Verdict, summary: string, evidence: string[] = []): Judgement {
  const shown = evidence.slice(0, EVIDENCE_LINES);
  if (evidence.length > EVIDENCE_LINES) shown.push(`... and ${evidence.length - EVIDENCE_LINES} more`);
  return { verdict, summary, evidence: shown };
}

export const notExercised = (what: string): Judgement =>
  judgement('not_exercised', `Not exercised: ${what}.`);
