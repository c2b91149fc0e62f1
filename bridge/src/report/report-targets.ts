/** Where a drift report is written, in each form `--report KIND:PATH` asks for (the one grammar of reports). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReportKind, ReportTarget } from '../../../openapi/report/report-target.js';
import type { DriftReport } from './drift-report.js';
import { jsonReport, junitReport, markdownReport } from './report-formats.js';

const WRITERS: Record<ReportKind, (report: DriftReport) => string> = {
  junit: junitReport,
  json: jsonReport,
  md: markdownReport,
};

/** Writes the report in each asked form (creating folders); returns the paths written. */
export function writeDriftReports(report: DriftReport, targets: readonly ReportTarget[]): string[] {
  return targets.map(({ kind, path }) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, WRITERS[kind](report));
    return path;
  });
}
