/**
 * The drift report of one or more recordings: per operation, status and member, the differences
 * between the traffic and the document (members the API sent that the document lacks, required ones it
 * left out, values outside enums and formats, undocumented statuses and operations) and the rules the
 * traffic broke, each with how many exchanges it affects and a few redacted samples, sorted by that
 * count; accepted differences (`--allow`) apart; the client's side (requests that break the document,
 * the client judge) apart too: they are no drift of the API.
 */
import type { JudgeReport } from '../../../simulator/src/judge/judge.js';
import type { Finding, FindingKind } from '../checks/finding.js';
import { RULES_TRAFFIC_CANNOT_SHOW } from '../checks/unseen-rules.js';
import { type Allowance, allowLine } from './allow-list.js';

export interface DriftEntry {
  kind: FindingKind;
  rule?: string;
  operation: string;
  status: number;
  member?: string;
  /** The first exchange's message. */
  message: string;
  /** Exchanges this difference shows in. */
  count: number;
  /** Up to three distinct samples (redacted). */
  samples: string[];
  /** Where it was first seen: `file#index` (0-based entry). */
  firstSeen: string;
  /** The accepting `--allow` entry's reason. */
  allowed?: string;
}

export interface RecordingFacts {
  file: string;
  creator: string;
  exchanges: number;
  /** Entries not checked: no answer, another host, the control API, the proxy's own failures. */
  notChecked: Record<string, number>;
}

export interface DriftReport {
  documentVersion: string;
  recordings: RecordingFacts[];
  /** Exchanges of the API checked. */
  checked: number;
  operations: { operation: string; exchanges: number }[];
  drift: DriftEntry[];
  allowed: DriftEntry[];
  /** `--allow` entries that matched nothing (maybe stale). */
  unusedAllowances: string[];
  client: DriftEntry[];
  rulesBroken: { rule: string; exchanges: number }[];
  notExercised: { rule: string; reason: string }[];
  judge: JudgeReport[];
}

export interface SourcedFinding {
  finding: Finding;
  file: string;
}

const keyOf = (f: Finding) => [f.kind, f.rule ?? '', f.operation, f.status, f.member ?? ''].join('|');

function group(findings: readonly SourcedFinding[]): DriftEntry[] {
  const entries = new Map<string, DriftEntry & { seen: Set<string> }>();
  for (const { finding, file } of findings) {
    const key = keyOf(finding);
    const at = `${file}#${finding.exchange}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = {
        kind: finding.kind,
        ...(finding.rule && { rule: finding.rule }),
        operation: finding.operation,
        status: finding.status,
        ...(finding.member && { member: finding.member }),
        message: finding.message,
        count: 0,
        samples: [],
        firstSeen: at,
        seen: new Set(),
      };
      entries.set(key, entry);
    }
    if (!entry.seen.has(at)) {
      entry.seen.add(at);
      entry.count += 1;
    }
    if (finding.sample !== undefined && entry.samples.length < 3 && !entry.samples.includes(finding.sample))
      entry.samples.push(finding.sample);
  }
  return [...entries.values()]
    .map(({ seen: _seen, ...entry }) => entry)
    .sort((a, b) => b.count - a.count || a.operation.localeCompare(b.operation));
}

export interface DriftInput {
  documentVersion: string;
  recordings: RecordingFacts[];
  checked: number;
  operations: Map<string, number>;
  findings: readonly SourcedFinding[];
  allowances: readonly Allowance[];
  judge: JudgeReport[];
}

export function buildDriftReport(input: DriftInput): DriftReport {
  const server = group(input.findings.filter(({ finding }) => finding.kind !== 'request'));
  const used = new Set<Allowance>();
  const drift: DriftEntry[] = [];
  const allowed: DriftEntry[] = [];
  for (const entry of server) {
    const allowance = input.allowances.find((a) => a.match.test(allowLine(entry)));
    if (allowance === undefined) drift.push(entry);
    else {
      used.add(allowance);
      allowed.push({ ...entry, allowed: allowance.reason });
    }
  }
  const broken = new Map<string, number>();
  for (const entry of drift)
    if (entry.rule) broken.set(entry.rule, (broken.get(entry.rule) ?? 0) + entry.count);
  return {
    documentVersion: input.documentVersion,
    recordings: input.recordings,
    checked: input.checked,
    operations: [...input.operations]
      .map(([operation, exchanges]) => ({ operation, exchanges }))
      .sort((a, b) => b.exchanges - a.exchanges || a.operation.localeCompare(b.operation)),
    drift,
    allowed,
    unusedAllowances: input.allowances.filter((a) => !used.has(a)).map((a) => a.match.source),
    client: group(input.findings.filter(({ finding }) => finding.kind === 'request')),
    rulesBroken: [...broken]
      .map(([rule, exchanges]) => ({ rule, exchanges }))
      .sort((a, b) => b.exchanges - a.exchanges),
    notExercised: Object.entries(RULES_TRAFFIC_CANNOT_SHOW).map(([rule, reason]) => ({ rule, reason })),
    judge: input.judge,
  };
}

/**
 * What a report says: the API drifted (differences nobody accepted), it did not, or nothing of the API
 * was checked, which is no verdict (a gate that checked nothing does not pass).
 */
export type DriftVerdict = 'drift' | 'no drift' | 'no verdict';

export function driftVerdict(report: DriftReport): DriftVerdict {
  if (report.drift.length > 0) return 'drift';
  return report.checked === 0 ? 'no verdict' : 'no drift';
}

/** The gate of `ofkit drift`, `record` and `proxy`: 1 on drift, 2 when nothing was checked, else 0. */
export const driftExitCode = (report: DriftReport) =>
  ({ drift: 1, 'no drift': 0, 'no verdict': 2 })[driftVerdict(report)];
