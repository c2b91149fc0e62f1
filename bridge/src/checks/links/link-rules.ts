/**
 * The link rules passing traffic shows: LINK-DELETE-ASYNC (the async header gets 202), the cooldown of
 * `x-cooldown` between two accepted refreshes of a link (LINK-REFRESH-COOLDOWN, on the recording's
 * clock; a control API clock move starts it over), a refresh's `fetch_resources` never stored on the
 * link (LINK-REFRESH-202), new credentials bring a link out of `invalid` / `token_required`
 * (LINK-PUT-CREDENTIALS), and the widget token's short life (TOKEN-WIDGET).
 */
import { headerOf } from '../../exchange/exchange.js';
import { type ExchangeView, isSuccess, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { pathIdOf, recordIdOf, ruleFinding, type SessionCheck, type SessionState } from '../session-check.js';

/** TOKEN-WIDGET's "short-lived", read as the conformance suite reads it: an hour at most (choice). */
const SHORT_LIVED_SECONDS = 3600;
const STUCK = new Set(['invalid', 'token_required']);

const sameList = (a: unknown, b: unknown) =>
  JSON.stringify([...((a as string[]) ?? [])].sort()) === JSON.stringify([...((b as string[]) ?? [])].sort());

export function createLinkRulesCheck(): SessionCheck {
  /** Link id -> when its last accepted refresh started (ms), and the epoch then. */
  const refreshed = new Map<string, { atMs: number; epoch: number }>();
  /** Link id -> the `fetch_resources` the link last showed, and a refresh's own list since. */
  const fetchResources = new Map<string, { stored: unknown; refreshedWith?: unknown }>();

  function cooldown(view: ExchangeView, state: SessionState, link: string): Finding[] {
    const seconds = Number((view.operation!.raw['x-cooldown'] as { seconds?: unknown } | undefined)?.seconds);
    const before = refreshed.get(link);
    refreshed.set(link, { atMs: view.atMs, epoch: state.epoch });
    if (!Number.isFinite(seconds) || before === undefined || before.epoch !== state.epoch) return [];
    const gap = (view.atMs - before.atMs) / 1000;
    if (gap >= seconds) return [];
    return [
      ruleFinding(
        view,
        'LINK-REFRESH-COOLDOWN',
        `link ${link} was refreshed again ${gap.toFixed(1)} s after an accepted refresh; the cooldown is ${seconds} s`,
      ),
    ];
  }

  function readLinks(view: ExchangeView): Finding[] {
    const findings: Finding[] = [];
    for (const link of recordsOf(view)) {
      const id = recordIdOf(link);
      if (id === undefined || !('fetch_resources' in link)) continue;
      const known = fetchResources.get(id);
      if (
        known?.refreshedWith !== undefined &&
        !sameList(known.stored, known.refreshedWith) &&
        sameList(link.fetch_resources, known.refreshedWith)
      )
        findings.push(
          ruleFinding(
            view,
            'LINK-REFRESH-202',
            `link ${id} now holds the fetch_resources of its refresh (${JSON.stringify(known.refreshedWith)}); a refresh does not change them`,
          ),
        );
      fetchResources.set(id, { stored: link.fetch_resources });
    }
    return findings;
  }

  function refresh(view: ExchangeView, state: SessionState): Finding[] {
    const link = pathIdOf(view);
    if (link === undefined || view.status !== 202) return [];
    const asked = (view.requestJson as { fetch_resources?: unknown } | undefined)?.fetch_resources;
    const known = fetchResources.get(link);
    if (asked !== undefined && known !== undefined) known.refreshedWith = asked;
    return cooldown(view, state, link);
  }

  const handlers: Record<string, (view: ExchangeView, state: SessionState) => Finding[]> = {
    refreshLink: refresh,
    deleteLink: (view) =>
      // LINK-DELETE-ASYNC: with `X-Service-Request-Mode: async` the deletion answers 202.
      headerOf(view.exchange.request.headers, 'x-service-request-mode') === 'async' &&
      isSuccess(view) &&
      view.status !== 202
        ? [
            ruleFinding(
              view,
              'LINK-DELETE-ASYNC',
              `an asynchronous deletion answered ${view.status}, not 202 with a request id`,
            ),
          ]
        : [],
    updateLinkCredentials: (view) => {
      const status = (view.responseJson as { status?: unknown } | undefined)?.status;
      return isSuccess(view) && typeof status === 'string' && STUCK.has(status)
        ? [
            ruleFinding(
              view,
              'LINK-PUT-CREDENTIALS',
              `new credentials were accepted but the link stays \`${status}\``,
            ),
          ]
        : [];
    },
  };

  return {
    observe(view, state) {
      if (view.control || !view.operation || view.exchange.upstreamFailure) return [];
      const findings = handlers[view.operation.operationId]?.(view, state) ?? [];
      if (isSuccess(view) && view.operation.path.startsWith('/api/links/')) findings.push(...readLinks(view));
      const expiresIn = (view.responseJson as { expires_in?: unknown } | undefined)?.expires_in;
      if (
        isSuccess(view) &&
        view.operation.rules.includes('TOKEN-WIDGET') &&
        typeof expiresIn === 'number' &&
        expiresIn > SHORT_LIVED_SECONDS
      )
        findings.push(
          ruleFinding(
            view,
            'TOKEN-WIDGET',
            `the widget token lasts ${expiresIn} s; a short-lived one lasts at most ${SHORT_LIVED_SECONDS} s`,
          ),
        );
      return findings;
    },
  };
}
