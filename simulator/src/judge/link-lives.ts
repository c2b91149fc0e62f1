/**
 * The tenant's links as its traffic shows them, followed in the order of the log (requests and
 * deliveries share one numbering): each registration and who it registers, each status an answer or a
 * LINK event showed, each deletion, credentials update and resume. What the client did against that
 * knowledge is collected for three rules: a registration of someone whose link is `valid`
 * (CLIENT-NO-DUPLICATE-LINKS), or `unconfirmed` from a 428 still resumable (CLIENT-MFA-RESUME), and a
 * second retrieval or refresh of a link known `invalid` or `token_required` with no credentials update
 * or resume in between (CLIENT-UPDATE-MODE).
 */
import type { ObservedDelivery, ObservedRequest } from './request-log.js';

/** One finding: what the client knew (the line that told it) and what it did then. */
export interface LinkFinding {
  known: string;
  did: string;
}

export interface LinkLives {
  registrations: number;
  /** Registrations while a link of the same end-user was `valid` and never deleted. */
  duplicates: LinkFinding[];
  /** Registrations while a link of the same end-user was `unconfirmed`, its 428 still resumable. */
  reRegistrations: LinkFinding[];
  /** Links the client learnt were broken (`invalid`, `token_required`). */
  broken: number;
  /** Second retrievals or refreshes of a broken link with no credentials update or resume between. */
  brokenReused: LinkFinding[];
}

interface Life {
  registrant?: string;
  status?: string;
  /** The line that showed the current status. */
  told: string;
  /** LINK-MFA-428: the pending registration's session end, on the tenant's clock. */
  resumableUntilMs?: number;
  /** Retrievals and refreshes since the link was known broken (the one that showed it counts). */
  usesWhileBroken: number;
}

const BROKEN = new Set(['invalid', 'token_required']);
const requestLine = (r: ObservedRequest) => `${r.entry.curl}   # ${r.entry.at} -> ${r.entry.status}`;
const deliveryLine = (d: ObservedDelivery) =>
  `webhook ${d.webhook_type} ${d.webhook_code} for link ${d.link_id}   # ${d.at} -> ${d.status ?? d.error}`;

/** A retrieval (`retrieve*`: POST on a data collection) or a refresh: what update mode forbids. */
const usesTheLink = (r: ObservedRequest) =>
  r.entry.method === 'POST' && /^(retrieve[A-Z]|refreshLink$)/.test(r.entry.operation_id ?? '');
/** A credentials update (PUT) or a resume after a 428 (any collection): what update mode asks for. */
const mendsTheLink = (r: ObservedRequest) =>
  r.entry.operation_id === 'updateLinkCredentials' || r.resume !== undefined;
const ok = (r: ObservedRequest) => r.entry.status >= 200 && r.entry.status < 300;

class Walk {
  readonly lives = new Map<string, Life>();
  readonly found: LinkLives = {
    registrations: 0,
    duplicates: [],
    reRegistrations: [],
    broken: 0,
    brokenReused: [],
  };

  life(id: string): Life {
    let life = this.lives.get(id);
    if (!life) {
      life = { told: '', usesWhileBroken: 0 };
      this.lives.set(id, life);
    }
    return life;
  }

  /** A status shown for a link: a change into a broken status starts update mode afresh. */
  shown(id: string, status: string, told: string, usedNow = false): void {
    const life = this.life(id);
    if (BROKEN.has(status) && !BROKEN.has(life.status ?? '')) {
      this.found.broken += 1;
      life.usesWhileBroken = usedNow ? 1 : 0;
    }
    if (status !== 'unconfirmed') life.resumableUntilMs = undefined;
    // The evidence is the line that first showed the status.
    if (life.status !== status) life.told = told;
    life.status = status;
  }

  registration(r: ObservedRequest): void {
    this.found.registrations += 1;
    const did = requestLine(r);
    // One finding per registration at most: the latest link of the end-user that makes it one.
    let valid: Life | undefined;
    let pending: Life | undefined;
    for (const life of this.lives.values()) {
      if (life.registrant !== r.registrant) continue;
      if (life.status === 'valid') valid = life;
      const resumable = life.resumableUntilMs !== undefined && r.atMs < life.resumableUntilMs;
      if (life.status === 'unconfirmed' && resumable) pending = life;
    }
    if (valid) this.found.duplicates.push({ known: valid.told, did });
    if (pending) this.found.reRegistrations.push({ known: pending.told, did });
    const id = r.linkStatus?.id;
    if (id === undefined) return;
    this.life(id).registrant = r.registrant;
  }

  request(r: ObservedRequest): void {
    if (r.registrant !== undefined) this.registration(r);
    const link = r.link === undefined ? undefined : this.life(r.link);
    if (link && usesTheLink(r) && BROKEN.has(link.status ?? '')) {
      link.usesWhileBroken += 1;
      if (link.usesWhileBroken >= 2) this.found.brokenReused.push({ known: link.told, did: requestLine(r) });
    }
    if (link && mendsTheLink(r)) link.usesWhileBroken = 0;
    if (r.entry.operation_id === 'deleteLink' && r.link && ok(r))
      this.shown(r.link, 'deleted', requestLine(r));
    // A session that cannot be resumed any more (expired, used) ends the pending registration's chance.
    if (r.resume && r.entry.error_code === 'session_expired' && r.resume.link)
      this.life(r.resume.link).resumableUntilMs = undefined;
    if (r.linkStatus) this.shown(r.linkStatus.id, r.linkStatus.status, requestLine(r), usesTheLink(r));
    const pausedLink = r.mfa?.link;
    if (pausedLink && (r.registrant !== undefined || r.entry.operation_id === 'resumeLinkRegistration'))
      this.life(pausedLink).resumableUntilMs = r.mfa!.expiresAtMs;
  }

  delivery(d: ObservedDelivery): void {
    if (d.link_id === null || d.status === null || d.status < 200 || d.status >= 300) return;
    const told = deliveryLine(d);
    if (d.webhook_type === 'LINK' && d.webhook_code === 'invalid_credentials')
      this.shown(d.link_id, 'invalid', told);
    if (d.webhook_type === 'LINK' && d.webhook_code === 'token_required')
      this.shown(d.link_id, 'token_required', told);
    if (d.webhook_code === 'link_deleted') this.shown(d.link_id, 'deleted', told);
  }
}

/** The links of a log, followed in order, and what the client did against what it knew of them. */
export function linkLives(
  requests: readonly ObservedRequest[],
  deliveries: readonly ObservedDelivery[],
): LinkLives {
  const walk = new Walk();
  let next = 0;
  for (const r of requests) {
    while (next < deliveries.length && deliveries[next]!.seq < r.entry.seq)
      walk.delivery(deliveries[next++]!);
    walk.request(r);
  }
  while (next < deliveries.length) walk.delivery(deliveries[next++]!);
  return walk.found;
}
