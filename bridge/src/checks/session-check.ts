/**
 * The contract of a rule check over a session: it sees every exchange in order (the control API's
 * too: a clock move or a reset changes what the exchanges after it may show) and reports the findings
 * the exchange shows, given the exchanges before it.
 */
import type { BridgeDocument } from '../document/bridge-document.js';
import type { ExchangeView } from './exchange-view.js';
import type { Finding } from './finding.js';

export interface SessionState {
  /**
   * Increases on every control API call that moves a tenant's time or replaces its state (clock,
   * reset, snapshot import, scenarios): time-based checks start over when it changes.
   */
  readonly epoch: number;
}

export interface SessionCheck {
  observe(view: ExchangeView, state: SessionState): Finding[];
}

export type SessionCheckFactory = (document: BridgeDocument) => SessionCheck;

/** A finding of `rule` about `view`. */
export function ruleFinding(
  view: ExchangeView,
  rule: string,
  message: string,
  extra: Partial<Finding> = {},
): Finding {
  return {
    kind: 'rule',
    rule,
    operation: view.operation?.operationId ?? `${view.method} ${view.apiPath}`,
    status: view.status,
    message,
    exchange: view.index,
    ...extra,
  };
}

/** The collection a record operation works on: `/api/accounts/` for list, retrieval, detail and delete. */
export function collectionOf(view: ExchangeView): string | undefined {
  const path = view.operation?.path;
  if (path === undefined) return undefined;
  return path.replace(/\{[^}]+\}\/$/, '');
}

/** The id of a record (payments objects name theirs after the object). */
export function recordIdOf(record: Record<string, unknown>): string | undefined {
  for (const name of ['id', 'payment_authorization_id', 'charge_id', 'enrollment_id']) {
    if (typeof record[name] === 'string') return record[name] as string;
  }
  return undefined;
}

/** The path parameter that names the record of a detail, update or delete (the template's last). */
export function pathIdOf(view: ExchangeView): string | undefined {
  if (!view.route.ok) return undefined;
  const names = [...(view.operation?.path.matchAll(/\{([^}]+)\}/g) ?? [])].map((m) => m[1]!);
  const last = names.at(-1);
  return last === undefined ? undefined : view.route.pathParams[last];
}

/** Whether the record operation's path ends on a record (`.../{id}/`). */
export const isRecordPath = (view: ExchangeView) => /\{[^}]+\}\/$/.test(view.operation?.path ?? '');
