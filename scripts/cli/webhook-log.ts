/**
 * The console's webhook lines, behind `--log-level`: at `info` (the default) one summary line at
 * shutdown, however many events a run raised (a long check raises thousands); at `debug` a line per
 * delivery attempt as it happens. The event log (`GET /_ofkit/events/`) keeps every attempt either way.
 */
import type { LogLevel } from '../../simulator/src/config/simulator-config.js';
import type { AttemptReport } from '../../simulator/src/webhooks/retrying-delivery.js';

export interface WebhookLog {
  onAttempt(report: AttemptReport): void;
  /** The shutdown line: attempts, events and where each event ended. */
  summary(): string;
}

function attemptLine({ tenant, payload, number, attempt, status }: AttemptReport): string {
  const outcome = attempt.status ?? attempt.error;
  return `webhook ${tenant} ${payload.webhook_type} ${payload.webhook_code} attempt ${number} -> ${outcome} (${attempt.duration_ms} ms): ${status}`;
}

export function createWebhookLog(level: LogLevel, print: (line: string) => void): WebhookLog {
  let attempts = 0;
  /** Each event's status after its last attempt, by tenant and event id. */
  const lastStatus = new Map<string, string>();
  return {
    onAttempt(report) {
      attempts += 1;
      lastStatus.set(`${report.tenant}/${report.event}`, report.status);
      if (level === 'debug') print(attemptLine(report));
    },
    summary() {
      if (attempts === 0) return 'webhooks: no delivery attempted';
      const ended = new Map<string, number>();
      for (const status of lastStatus.values()) ended.set(status, (ended.get(status) ?? 0) + 1);
      const statuses = [...ended].map(([status, count]) => `${count} ${status}`).join(', ');
      const more = level === 'debug' ? '' : 'each attempt: --log-level debug; ';
      return `webhooks: ${attempts} delivery attempts for ${lastStatus.size} events (${statuses}) (${more}each event: GET /_ofkit/events/)`;
    },
  };
}
