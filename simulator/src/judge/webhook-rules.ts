/**
 * The webhook receiver's rules (CLIENT-WEBHOOK-ACK, -BEARER, -DUPLICATE, a repeat processed twice
 * being a warning of the last) and the client's follow-up
 * reads (CLIENT-WEBHOOK-FOLLOW-UP, the client's side of WEBHOOK-FOLLOW-UP), judged from the deliveries
 * and the request log, which share one sequence.
 */
import { shellQuote } from '../../../openapi/security/shell-quote.js';
import { type Judgement, judgement, notExercised } from './client-rules.js';
import type { ObservedDelivery, ObservedRequest } from './request-log.js';

const ok = (d: ObservedDelivery) => d.status !== null && d.status >= 200 && d.status < 300;

/** A delivery as a curl line: the receiver and its bearer token are placeholders (never stored). */
export function deliveryLine(d: ObservedDelivery): string {
  // Double quotes: the shell expands the variable (single quotes would send it literally).
  const auth = d.kind === 'forged' ? '' : ' -H "authorization: Bearer $WEBHOOK_BEARER"';
  const body = JSON.stringify({
    ...(d.webhook_id !== null && { webhook_id: d.webhook_id }),
    webhook_type: d.webhook_type,
    webhook_code: d.webhook_code,
    link_id: d.link_id,
  });
  // One line whatever the outcome says: a comment ends at the line's end.
  const outcome = String(d.status ?? d.error).replace(/[\r\n]+/g, ' ');
  return `curl -X POST "$WEBHOOK_URL"${auth} --data-raw ${shellQuote(body)}   # ${d.kind} attempt ${d.attempt} at ${d.at} -> ${outcome} (${d.duration_ms} ms)`;
}

export function judgeWebhookAck(deliveries: readonly ObservedDelivery[]): Judgement {
  const real = deliveries.filter((d) => d.kind === 'delivery');
  if (real.length === 0) return notExercised('no webhook delivered');
  const missed = real.filter((d) => !ok(d));
  if (missed.length === 0)
    return judgement('followed', `${real.length} delivery attempt(s), each answered 2xx in time.`);
  return judgement(
    'violated',
    `${missed.length} of ${real.length} delivery attempt(s) not answered 2xx in time.`,
    missed.map(deliveryLine),
  );
}

export function judgeWebhookBearer(deliveries: readonly ObservedDelivery[]): Judgement {
  const forged = deliveries.filter((d) => d.kind === 'forged');
  if (forged.length === 0)
    return notExercised('no forged delivery sent (POST /_ofkit/judge/probes/ with a bearer configured)');
  const accepted = forged.filter(ok);
  if (accepted.length === 0)
    return judgement(
      'followed',
      `${forged.length} forged delivery(ies), each refused.`,
      forged.map(deliveryLine),
    );
  return judgement(
    'violated',
    `${accepted.length} forged delivery(ies) without the bearer token accepted.`,
    accepted.map(deliveryLine),
  );
}

/**
 * CLIENT-WEBHOOK-DUPLICATE: each repeated delivery acknowledged (else violated); and, as a warning, an
 * event delivered twice whose follow-up read was made twice before another event asked for it: traffic
 * suggests the repeat was processed again, it cannot prove it (the client may re-read for its own reasons).
 */
export function judgeWebhookDuplicate(
  deliveries: readonly ObservedDelivery[],
  requests: readonly ObservedRequest[] = [],
): Judgement {
  const repeated = deliveries.filter((d) => d.kind === 'duplicate');
  if (repeated.length === 0) return notExercised('no repeated delivery sent (POST /_ofkit/judge/probes/)');
  const refused = repeated.filter((d) => !ok(d));
  if (refused.length > 0)
    return judgement(
      'violated',
      `${refused.length} repeated delivery(ies) not acknowledged.`,
      refused.map(deliveryLine),
    );
  const twice = processedTwice(deliveries, requests);
  if (twice.length > 0)
    return judgement(
      'warning',
      `${twice.length / 2} repeated event(s) followed by their follow-up read twice: processed twice?`,
      twice,
    );
  return judgement(
    'followed',
    `${repeated.length} repeated delivery(ies), each acknowledged.`,
    repeated.map(deliveryLine),
  );
}

/** A page after a list's first (PAGE-DEFAULT: `page` counts from 1). */
const furtherPage = (r: ObservedRequest) => {
  const page = new URLSearchParams(r.entry.query).get('page');
  return page !== null && page !== '1';
};

/**
 * Events delivered again (a `duplicate` of a `delivery`, same `webhook_id`) whose follow-up read was
 * made at least twice between the first delivery and the next other event that announces the same read.
 */
function processedTwice(
  deliveries: readonly ObservedDelivery[],
  requests: readonly ObservedRequest[],
): string[] {
  const firstOf = new Map<string, ObservedDelivery>();
  for (const d of deliveries)
    if (d.kind === 'delivery' && ok(d) && d.webhook_id !== null && !firstOf.has(d.webhook_id))
      firstOf.set(d.webhook_id, d);
  const found: string[] = [];
  const judged = new Set<string>();
  for (const repeat of deliveries) {
    if (repeat.kind !== 'duplicate' || repeat.webhook_id === null || judged.has(repeat.webhook_id)) continue;
    judged.add(repeat.webhook_id);
    const first = firstOf.get(repeat.webhook_id);
    const followUp = first && followUpOf(first);
    if (!first || !followUp) continue;
    // The window ends at the next other event asking the same read after the first delivery (an event
    // between the first and the repeat has a read of its own: not the repeat processed again).
    const nextAsking = deliveries.find(
      (d) =>
        d.seq > first.seq &&
        d.kind === 'delivery' &&
        d.webhook_id !== first.webhook_id &&
        followUpOf(d)?.read === followUp.read,
    );
    const until = nextAsking?.seq ?? Number.POSITIVE_INFINITY;
    // A read is a list begun again: its further pages (through `next`) are the same read.
    const reads = requests.filter(
      (r) => r.entry.seq > first.seq && r.entry.seq < until && followUp.matches(r) && !furtherPage(r),
    );
    if (reads.length >= 2)
      found.push(
        deliveryLine(repeat),
        `${reads[1]!.entry.curl}   # the follow-up read made again (${reads.length} times)`,
      );
  }
  return found;
}

const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

/** Does `request` read what `event` announces (interface spec, "Follow-up reads after an event")? */
type Matcher = (request: ObservedRequest) => boolean;

function followUpOf(event: ObservedDelivery): { read: string; matches: Matcher } | undefined {
  const link = event.link_id;
  const params = (r: ObservedRequest) => new URLSearchParams(r.entry.query);
  const listFor = (path: string): { read: string; matches: Matcher } => ({
    read: `GET ${path}?link=${link}`,
    matches: (r) => r.entry.method === 'GET' && r.entry.path === path && params(r).get('link') === link,
  });
  const { webhook_type: type, webhook_code: code } = event;
  if (type === 'ACCOUNTS') return listFor('/api/accounts/');
  if (type === 'OWNERS') return listFor('/api/owners/');
  if (type === 'TAX_RETURNS') return listFor('/api/tax-returns/');
  if (type === 'TAX_STATUS') return listFor('/api/tax-status/');
  if (type === 'TRANSACTIONS' && code === 'transactions_updated') {
    const ids = list(event.data.updated_transactions);
    const read = `GET /api/transactions/?id__in=${ids.join(',')}`;
    const matches: Matcher = (r) => {
      const asked = new Set((params(r).get('id__in') ?? '').split(','));
      return (
        r.entry.method === 'GET' && r.entry.path === '/api/transactions/' && ids.every((id) => asked.has(id))
      );
    };
    return { read, matches };
  }
  if (type === 'TRANSACTIONS' && (code === 'historical_update' || code === 'new_transactions_available')) {
    return listFor('/api/transactions/');
  }
  if (type === 'INVOICES' && code === 'invoices_cancelled') {
    const ids = list(event.data.cancelled_invoices);
    return {
      read: ids.map((id) => `GET /api/invoices/${id}/`).join(', '),
      matches: (r) => r.entry.method === 'GET' && ids.some((id) => r.entry.path === `/api/invoices/${id}/`),
    };
  }
  if (type === 'INVOICES') return listFor('/api/invoices/');
  if (type === 'LINK' && code === 'invalid_credentials') {
    return {
      read: `PUT /api/links/${link}/`,
      matches: (r) => r.entry.method === 'PUT' && r.entry.path === `/api/links/${link}/`,
    };
  }
  // token_required (the widget's), transactions_deleted, link_deleted, payments: no read to judge.
  return undefined;
}

/**
 * A read after the event: logged after the attempt, or begun after it was sent (a receiver that answers
 * and reads at once has its read logged before the simulator has logged the attempt's answer).
 */
const after = (event: ObservedDelivery, read: ObservedRequest) =>
  read.entry.seq > event.seq || (event.sent_real_ms !== undefined && read.realMs > event.sent_real_ms);

export function judgeFollowUp(
  deliveries: readonly ObservedDelivery[],
  requests: readonly ObservedRequest[],
): Judgement {
  const seen = new Set<string>();
  const missing: string[] = [];
  let judged = 0;
  for (const event of deliveries) {
    if (event.kind !== 'delivery' || !ok(event)) continue;
    const key = event.webhook_id ?? `${event.seq}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const followUp = followUpOf(event);
    if (!followUp) continue;
    judged += 1;
    const read = requests.some((r) => after(event, r) && followUp.matches(r));
    if (!read) missing.push(`${deliveryLine(event)}   # expected then: ${followUp.read}`);
  }
  if (judged === 0) return notExercised('no acknowledged event announces a read');
  if (missing.length === 0)
    return judgement('followed', `${judged} event(s), each followed by the read it announces.`);
  return judgement(
    'violated',
    `${missing.length} of ${judged} event(s) not followed by the read they announce.`,
    missing,
  );
}
