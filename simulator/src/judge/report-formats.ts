/**
 * The judge's reports at shutdown: JSON (the `GET /_ofkit/judge/` reports of every tenant), JUnit XML
 * (one test case per tenant and rule: a violation is a failure, not exercised is skipped, a warning
 * passes with its evidence beside it) and the console summary. The CLI writes them; the core only
 * builds strings.
 */
import { renderSuites, type SuitesForm } from '../../../openapi/report/render-suites.js';
import type { JUnitCase, JUnitSuite } from '../../../openapi/report/to-junit-xml.js';
import type { JudgeReport, RuleVerdict } from './client-rules.js';
import { type EvidenceSources, evidenceExport } from './evidence-exports.js';

export function jsonReport(reports: readonly JudgeReport[]): string {
  return `${JSON.stringify({ tenants: reports }, null, 2)}\n`;
}

/**
 * One verdict as a JUnit case: a violation fails, not exercised is skipped, a warning passes with its
 * summary and evidence beside it (`warning`), followed passes.
 */
export function verdictCase(v: RuleVerdict, tenant: string): JUnitCase {
  const testCase = { classname: `ofkit.judge.${tenant}`, name: `${v.rule} ${v.title}` };
  switch (v.verdict) {
    case 'not_exercised':
      return { ...testCase, skipped: v.summary };
    case 'followed':
      return testCase;
    case 'warning':
      return { ...testCase, warning: [v.summary, ...v.evidence].join('\n') };
    case 'violated':
      return { ...testCase, failure: { message: v.summary, details: [v.section, ...v.evidence].join('\n') } };
  }
}

/** One suite per tenant, one case per rule: as JUnit XML, or the same cases in Markdown. */
export function junitReport(reports: readonly JudgeReport[], form: SuitesForm = 'junit'): string {
  const suites = reports.map(
    (report): JUnitSuite => ({
      name: `ofkit client judge: ${report.tenant} (timing ${report.timing})`,
      cases: report.verdicts.map((v) => verdictCase(v, report.tenant)),
    }),
  );
  return renderSuites(form, 'ofkit client judge', suites);
}

const MARK = { followed: 'ok  ', warning: 'WARN', violated: 'FAIL', not_exercised: '--  ' } as const;
/** The verdicts whose evidence the console prints under their line. */
const SHOWN = new Set(['violated', 'warning']);

/**
 * One line per rule and tenant, then the evidence of each violation; with `sources`, the `export` line
 * its curl lines need comes first (evidence-exports.ts), so that they run as pasted.
 */
export function consoleSummary(reports: readonly JudgeReport[], sources?: EvidenceSources): string {
  if (reports.length === 0) return 'client judge: no tenant made a request';
  return reports
    .map((report) => {
      // Rules were judged on the latest requests only: the head says how many older ones the bound dropped.
      const dropped =
        report.dropped > 0 ? `, ${report.dropped} older requests dropped by the log's bound` : '';
      const head = `client judge, tenant ${report.tenant} (${report.requests} requests${dropped}, ${report.deliveries} deliveries, timing ${report.timing}):`;
      const exported = sources && evidenceExport(report, sources);
      const preamble = exported ? [`  the evidence below runs as pasted after:\n        ${exported}`] : [];
      const lines = report.verdicts.map((v) => {
        const evidence = SHOWN.has(v.verdict) ? v.evidence.map((e) => `\n        ${e}`).join('') : '';
        return `  ${MARK[v.verdict]} ${v.rule.padEnd(26)} ${v.summary}${evidence}`;
      });
      return [head, ...preamble, ...lines].join('\n');
    })
    .join('\n\n');
}
