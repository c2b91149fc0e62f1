/**
 * The judge's reports at shutdown: JSON (the `GET /_ofkit/judge/` reports of every tenant), JUnit XML
 * (one test case per tenant and rule: a violation is a failure, not exercised is skipped) and the
 * console summary. The CLI writes them; the core only builds strings.
 */
import type { JudgeReport } from './judge-tenant.js';

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function jsonReport(reports: readonly JudgeReport[]): string {
  return `${JSON.stringify({ tenants: reports }, null, 2)}\n`;
}

export function junitReport(reports: readonly JudgeReport[]): string {
  const suites = reports.map((report) => {
    const failures = report.verdicts.filter((v) => v.verdict === 'violated').length;
    const skipped = report.verdicts.filter((v) => v.verdict === 'not_exercised').length;
    const cases = report.verdicts.map((v) => {
      const name = `${v.rule} ${v.title}`;
      const open = `    <testcase classname="ofkit.judge.${xml(report.tenant)}" name="${xml(name)}">`;
      if (v.verdict === 'followed') return `${open}</testcase>`;
      if (v.verdict === 'not_exercised') return `${open}<skipped message="${xml(v.summary)}"/></testcase>`;
      const body = xml([v.section, ...v.evidence].join('\n'));
      return `${open}\n      <failure message="${xml(v.summary)}">${body}</failure>\n    </testcase>`;
    });
    return [
      `  <testsuite name="ofkit client judge: ${xml(report.tenant)} (timing ${report.timing})" tests="${report.verdicts.length}" failures="${failures}" skipped="${skipped}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ofkit client judge">\n${suites.join('\n')}\n</testsuites>\n`;
}

const MARK = { followed: 'ok  ', violated: 'FAIL', not_exercised: '--  ' } as const;

/** One line per rule and tenant, then the evidence of each violation. */
export function consoleSummary(reports: readonly JudgeReport[]): string {
  if (reports.length === 0) return 'client judge: no tenant made a request';
  return reports
    .map((report) => {
      const head = `client judge, tenant ${report.tenant} (${report.requests} requests, ${report.deliveries} deliveries, timing ${report.timing}):`;
      const lines = report.verdicts.map((v) => {
        const evidence = v.verdict === 'violated' ? v.evidence.map((e) => `\n        ${e}`).join('') : '';
        return `  ${MARK[v.verdict]} ${v.rule.padEnd(26)} ${v.summary}${evidence}`;
      });
      return [head, ...lines].join('\n');
    })
    .join('\n\n');
}
