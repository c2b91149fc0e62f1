/** `--report junit:path`, `--report json:path`, `--report md:path`: where a drift report is written. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DriftReport } from './drift-report.js';
import { jsonReport, junitReport, markdownReport } from './report-formats.js';

export type DriftReportKind = 'junit' | 'json' | 'md';

export interface DriftReportTarget {
  kind: DriftReportKind;
  path: string;
}

const WRITERS: Record<DriftReportKind, (report: DriftReport) => string> = {
  junit: junitReport,
  json: jsonReport,
  md: markdownReport,
};

/** The target of one `--report` value, or undefined when it is not `junit:`, `json:` or `md:` and a path. */
export function parseDriftReportTarget(text: string): DriftReportTarget | undefined {
  const match = /^(junit|json|md):(.+)$/.exec(text);
  return match ? { kind: match[1] as DriftReportKind, path: match[2]! } : undefined;
}

/** Writes the report in each asked form (creating folders); returns the paths written. */
export function writeDriftReports(report: DriftReport, targets: readonly DriftReportTarget[]): string[] {
  return targets.map(({ kind, path }) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, WRITERS[kind](report));
    return path;
  });
}
