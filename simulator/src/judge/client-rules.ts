/**
 * The catalogue of client rules the judge grades (README "Judge your client"): each with the section of
 * the interface spec it comes from. The first four are the spec's own client rules; the others are the
 * client's side of a server rule (a limit, a session, a page, an event).
 */
import { RULES, type RuleId } from '../../../openapi/generated/rules.js';

/** The client rules' IDs: the catalogue's `side: client` rules (openapi/rules.yaml). */
export type ClientRuleId = Extract<RuleId, `CLIENT-${string}`>;

/** The rules the judge grades, with the catalogue's statement and specification section. */
export const CLIENT_RULES: readonly { rule: ClientRuleId; title: string; section: string }[] = RULES.filter(
  (entry) => entry.side === 'client',
).map((entry) => ({ rule: entry.id as ClientRuleId, title: entry.statement, section: entry.section }));

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

/** One client's report: every client rule of the catalogue with its verdict. */
export interface JudgeReport {
  tenant: string;
  timing: Timing;
  requests: number;
  deliveries: number;
  /** Requests evicted by the memory bound: rules are judged on what is left. */
  dropped: number;
  verdicts: RuleVerdict[];
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
