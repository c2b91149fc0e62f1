/**
 * The limits a retrieval's own exchange shows, read from the operation's annotations: RANGE-365
 * (`x-max-range-days`: a longer requested range is refused), TAX-RETENTIONS-500
 * (`x-max-records-per-period`: no answer holds more), TAX-RETURNS-MIXED (the `type` asked is the
 * type answered), EMPLOYMENT-METRICS-PREREQ (`x-prerequisite`: for a link registered in the recording,
 * the prerequisite retrieval came first).
 */
import { type ExchangeView, isSuccess, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import { ruleFinding, type SessionCheck } from '../session-check.js';

const DAY_MS = 86_400_000;

interface Body {
  link?: unknown;
  date_from?: unknown;
  date_to?: unknown;
  type?: unknown;
}

function rangeDays(body: Body): number | undefined {
  if (typeof body.date_from !== 'string' || typeof body.date_to !== 'string') return undefined;
  const days = (Date.parse(body.date_to) - Date.parse(body.date_from)) / DAY_MS;
  return Number.isFinite(days) ? days : undefined;
}

export function createRetrievalLimitsCheck(): SessionCheck {
  /** tenant|link: links registered in the recording. */
  const registered = new Set<string>();
  /** tenant|collection|link: successful retrievals. */
  const done = new Set<string>();

  function limits(view: ExchangeView, body: Body): Finding[] {
    const raw = view.operation!.raw;
    const findings: Finding[] = [];
    const maxDays = raw['x-max-range-days'];
    const days = rangeDays(body);
    if (typeof maxDays === 'number' && days !== undefined && days > maxDays)
      findings.push(
        ruleFinding(view, 'RANGE-365', `a range of ${days} days was served; at most ${maxDays} are`),
      );
    const maxRecords = raw['x-max-records-per-period'];
    const held = Array.isArray(view.responseJson) ? view.responseJson.length : 0;
    if (typeof maxRecords === 'number' && held > maxRecords)
      findings.push(
        ruleFinding(
          view,
          'TAX-RETENTIONS-500',
          `the retrieval answered ${held} records for one period; at most ${maxRecords}`,
        ),
      );
    if (view.operation!.rules.includes('TAX-RETURNS-MIXED') && typeof body.type === 'string') {
      const other = recordsOf(view).find(
        (record) => String(record.type).toLowerCase() !== String(body.type).toLowerCase(),
      );
      if (other !== undefined)
        findings.push(
          ruleFinding(
            view,
            'TAX-RETURNS-MIXED',
            `the retrieval asked for type ${body.type} and answered a ${String(other.type)} return`,
          ),
        );
    }
    return findings;
  }

  function prerequisite(view: ExchangeView, link: string): Finding[] {
    const wanted = (view.operation!.raw['x-prerequisite'] as { retrieval?: unknown } | undefined)?.retrieval;
    if (typeof wanted !== 'string' || !registered.has(`${view.tenant}|${link}`)) return [];
    if (done.has(`${view.tenant}|${wanted}|${link}`)) return [];
    return [
      ruleFinding(
        view,
        'EMPLOYMENT-METRICS-PREREQ',
        `served for link ${link} before any retrieval of ${wanted} for it`,
      ),
    ];
  }

  return {
    observe(view) {
      if (view.control || !view.operation || view.method !== 'POST' || !isSuccess(view)) return [];
      if (view.operation.operationId === 'registerLink') {
        const id = (view.responseJson as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string') registered.add(`${view.tenant}|${id}`);
        return [];
      }
      const body = (view.requestJson ?? {}) as Body;
      if (!view.operation.rules.includes('DATA-RETRIEVE') || typeof body.link !== 'string') return [];
      const findings = [...limits(view, body), ...prerequisite(view, body.link)];
      done.add(`${view.tenant}|${view.operation.path}|${body.link}`);
      return findings;
    },
  };
}
