/**
 * A log cut where the client reset the simulator (`POST /_ofkit/reset/`, a snapshot import), and the
 * judgements of its parts put back together. Each part is judged on its own: a test case that starts
 * afresh after a reset neither retries nor repeats what the case before it sent, and the tenant's clock
 * starts again. What was judged before a reset stays judged: a rule violated in any part is violated, one
 * warned of in some part and violated in none is a warning, one followed in some part and neither is followed.
 */
import { type Judgement, judgement } from './client-rules.js';
import type { ObservedDelivery, ObservedRequest } from './request-log.js';

/** One part of a log: what came after one reset and up to the next. */
export interface LogPart {
  requests: readonly ObservedRequest[];
  deliveries: readonly ObservedDelivery[] | { unobserved: string };
}

/** Index of the part `seq` falls in: after the resets numbered before it. */
function partOf(seq: number, resets: readonly number[]): number {
  let index = 0;
  while (index < resets.length && (resets[index] as number) < seq) index += 1;
  return index;
}

/** The log cut at the resets (numbers in one sequence with the entries), in order; one part without any. */
export function logParts(log: LogPart, resets: readonly number[] = []): LogPart[] {
  if (resets.length === 0) return [log];
  const parts = Array.from({ length: resets.length + 1 }, () => ({
    requests: [] as ObservedRequest[],
    deliveries: [] as ObservedDelivery[],
  }));
  for (const request of log.requests) parts[partOf(request.entry.seq, resets)]?.requests.push(request);
  const { deliveries } = log;
  if (!Array.isArray(deliveries))
    return parts.map((part) => ({ requests: part.requests, deliveries: log.deliveries }));
  for (const delivery of deliveries as readonly ObservedDelivery[])
    parts[partOf(delivery.seq, resets)]?.deliveries.push(delivery);
  // A part with nothing in it (two resets in a row) says nothing.
  return parts.filter((part) => part.requests.length > 0 || part.deliveries.length > 0);
}

const counted = (judgements: readonly Judgement[], verdict: Judgement['verdict']) =>
  judgements.filter((j) => j.verdict === verdict).length;

/** How many parts said what, when there were several. */
function partsNote(judgements: readonly Judgement[]): string {
  const said = (['violated', 'warning', 'followed', 'not_exercised'] as const)
    .map((verdict) => [verdict, counted(judgements, verdict)] as const)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${count} ${verdict.replace('_', ' ')}`);
  return ` (judged in ${judgements.length} parts between resets: ${said.join(', ')})`;
}

/** The verdict that decides, first first: a violation anywhere, then a risk, then a rule followed. */
const DECISIVE = ['violated', 'warning', 'followed'] as const;

/**
 * One rule's judgements of the parts, as one: violated in any, else a warning in any, else followed in
 * any, else not exercised.
 */
export function mergedJudgement(judgements: readonly Judgement[]): Judgement {
  const [only] = judgements;
  if (judgements.length === 1 && only) return only;
  const decisive =
    DECISIVE.map((verdict) => judgements.filter((j) => j.verdict === verdict)).find(
      (some) => some.length > 0,
    ) ?? [];
  const first = decisive[0] ?? judgements[0];
  if (first === undefined) throw new Error('mergedJudgement needs the judgement of one part at least');
  // judgement() keeps the first lines and counts the rest, whatever each part kept already.
  const evidence = decisive.flatMap((j) => j.evidence);
  return judgement(first.verdict, `${first.summary}${partsNote(judgements)}`, evidence);
}
