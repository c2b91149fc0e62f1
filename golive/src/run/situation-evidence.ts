/**
 * The evidence a situation leaves in the bundle, redacted by the bridge's redaction: the judge's
 * evidence lines (curl lines, the key already a placeholder), the client's output lines that name the
 * request id of an error answer (what a support ticket would quote), the end of its output when its
 * command failed, and excerpts of the webhook deliveries. The redaction first learns every credential and
 * personal value of the run's exchanges, so none of them reaches the bundle in any of those texts.
 */
import {
  createEvidenceRedaction,
  type EvidenceExchange,
} from '../../../bridge/src/redaction/evidence-redaction.js';
import type { RuleVerdict } from '../../../simulator/src/judge/judge.js';
import type { JudgedSituation, SeenExchange } from './situation-simulator.js';

/** Bounds of what a situation keeps: a reviewer reads it, a CI artifact stores it. */
const MATCHED_LINES = 20;
const TAIL_LINES = 20;
const LINE_CHARACTERS = 500;
const DELIVERIES_SHOWN = 8;

export interface DeliveryExcerpt {
  readonly kind: 'delivery' | 'duplicate' | 'forged';
  readonly webhook_type: string;
  readonly webhook_code: string;
  readonly attempt: number;
  /** The receiver's answer, or why none came. */
  readonly answer: string;
  readonly data: unknown;
}

export interface SituationEvidence {
  /** Every client rule's verdict in this situation, its evidence redacted. */
  readonly verdicts: readonly RuleVerdict[];
  /** Lines of the client's output naming the request id of an error answer. */
  readonly matchedLines: readonly string[];
  /** The last lines of the client's output, when its command failed. */
  readonly outputTail: readonly string[];
  readonly deliveries: readonly DeliveryExcerpt[];
}

const JSON_TYPE = ['content-type', 'application/json'] as const;

/** The simulator's exchange as the bridge reads one (bodies as text, a JSON body named so). */
function bridgeExchange({ request, response }: SeenExchange): EvidenceExchange {
  const query = request.query.toString();
  const body =
    response.body !== undefined ? JSON.stringify(response.body) : response.serialize?.().toString('utf8');
  return {
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
    request: {
      method: request.method,
      url: `${request.origin}${request.path}${query === '' ? '' : `?${query}`}`,
      headers: [...Object.entries(request.headers), JSON_TYPE],
      ...(request.body !== '' && { body: request.body }),
    },
    response: {
      status: response.status,
      statusText: '',
      headers: [...Object.entries(response.headers), JSON_TYPE],
      ...(body !== undefined && { body }),
    },
  };
}

const clipped = (line: string) =>
  line.length > LINE_CHARACTERS ? `${line.slice(0, LINE_CHARACTERS)}... (cut)` : line;

/** The lines that name one of `ids`, the first few. */
function matchedLines(lines: readonly string[], ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  const idLike = /[0-9a-f]{16,}/gi;
  return lines
    .filter((line) => (line.match(idLike) ?? []).some((id) => wanted.has(id)))
    .slice(0, MATCHED_LINES);
}

function deliveryExcerpts(judged: JudgedSituation, redact: (value: unknown) => unknown): DeliveryExcerpt[] {
  const real = judged.deliveries.filter((d) => d.kind === 'delivery').slice(0, DELIVERIES_SHOWN);
  const probes = judged.deliveries.filter((d) => d.kind !== 'delivery').slice(0, DELIVERIES_SHOWN);
  return [...real, ...probes].map((d) => ({
    kind: d.kind,
    webhook_type: d.webhook_type,
    webhook_code: d.webhook_code,
    attempt: d.attempt,
    answer: d.status === null ? `no answer (${d.error ?? 'unknown'})` : String(d.status),
    data: redact(d.data),
  }));
}

/** The situation's evidence, redacted; `output` is the client's (empty for a test body run in process). */
export function situationEvidence(
  judged: JudgedSituation,
  output: string,
  failed: boolean,
): SituationEvidence {
  const redaction = createEvidenceRedaction(judged.key);
  for (const exchange of judged.exchanges) redaction.see(bridgeExchange(exchange));
  const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '');
  const text = (line: string) => clipped(redaction.text(line));
  return {
    verdicts: judged.report.verdicts.map((v) => ({ ...v, evidence: v.evidence.map(text) })),
    matchedLines: matchedLines(lines, judged.errorRequestIds).map(text),
    outputTail: failed ? lines.slice(-TAIL_LINES).map(text) : [],
    deliveries: deliveryExcerpts(judged, (value) => redaction.json(value)),
  };
}
