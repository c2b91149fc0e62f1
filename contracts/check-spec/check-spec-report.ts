/** The words and the JUnit XML of a `pact check-spec` report. */
import { relative } from 'node:path';
import { renderSuites, type SuitesForm } from '../../openapi/report/render-suites.js';
import type { JUnitSuite } from '../../openapi/report/to-junit-xml.js';
import type { CheckSpecReport, InteractionVerdict } from './check-pacts.js';

/** `POST /api/links/{id}/refresh/ (refreshLink)`, or the pact's own path when no operation matched. */
const label = ({ interaction, operation }: InteractionVerdict) =>
  operation
    ? `${interaction.request.method} ${operation.path} (${operation.id})`
    : `${interaction.request.method} ${interaction.request.path}`;

/** One line per interaction, its problems indented under it, and a summary. */
export function describeCheckSpec(report: CheckSpecReport): string {
  const lines = [`Pacts checked against ${relative(process.cwd(), report.document) || report.document}`];
  for (const verdict of report.verdicts) {
    const mark = verdict.problems.length === 0 ? '✓' : '✗';
    lines.push(`  ${mark} ${verdict.interaction.description}  [${label(verdict)}]`);
    for (const problem of verdict.problems) lines.push(`      - ${problem}`);
  }
  for (const skipped of report.skipped)
    lines.push(`  - ${skipped.description}: not checked, ${skipped.reason}`);
  const failed = report.verdicts.filter((verdict) => verdict.problems.length > 0).length;
  if (report.verdicts.length === 0) lines.push('No HTTP interactions found: nothing was checked.');
  else
    lines.push(
      `${report.verdicts.length} interaction${report.verdicts.length === 1 ? '' : 's'}: ${report.verdicts.length - failed} agree, ${failed} disagree.`,
    );
  return lines.join('\n');
}

/** One suite per pact file, one case per interaction. */
export function checkSpecJUnit(report: CheckSpecReport, form: SuitesForm = 'junit'): string {
  const suites = new Map<string, JUnitSuite>();
  for (const verdict of report.verdicts) {
    const { file, consumer, provider, description } = verdict.interaction;
    const suite = suites.get(file) ?? {
      name: `${consumer} -> ${provider} (${relative(process.cwd(), file)})`,
      cases: [],
    };
    suites.set(file, suite);
    const [first = '', ...rest] = verdict.problems;
    suite.cases.push({
      name: description,
      classname: `check-spec.${consumer}.${provider}`,
      ...(first && { failure: { message: first, details: [label(verdict), first, ...rest].join('\n') } }),
    });
  }
  return renderSuites(form, 'ofkit pact check-spec', [...suites.values()]);
}
