/**
 * A drift report in the forms a team reads it in: the console summary, JSON (the whole report), JUnit
 * XML (one test case per operation seen, failing with its differences, and one per rule broken; the
 * client judge's cases beside them) and Markdown for a pull-request comment.
 */
import { type JUnitCase, type JUnitSuite, toJUnitXml } from '../../../openapi/report/to-junit-xml.js';
import { consoleSummary } from '../../../simulator/src/judge/judge.js';
import { type DriftEntry, type DriftReport, driftVerdict } from './drift-report.js';

const NOTHING_CHECKED = 'no exchange of the API was checked';

const where = (e: DriftEntry) => [e.member, e.rule].filter(Boolean).join(' ');
const samples = (e: DriftEntry) => (e.samples.length > 0 ? ` (e.g. ${e.samples.join(', ')})` : '');

function entryLine(e: DriftEntry): string {
  return `${String(e.count).padStart(5)}x ${e.operation} ${e.status} ${e.kind}${where(e) ? ` ${where(e)}` : ''}: ${e.message}${samples(e)}`;
}

function notChecked(report: DriftReport): string {
  const totals = new Map<string, number>();
  for (const recording of report.recordings)
    for (const [reason, count] of Object.entries(recording.notChecked))
      totals.set(reason, (totals.get(reason) ?? 0) + count);
  const parts = [...totals].filter(([, count]) => count > 0).map(([reason, count]) => `${count} ${reason}`);
  return parts.length === 0 ? '' : `; not checked: ${parts.join(', ')}`;
}

/** The verdict line: no drift says something only once an exchange of the API was checked. */
function headline(report: DriftReport): string {
  const lines = {
    drift: `DRIFT: ${report.drift.length} differences (most exchanges first):`,
    'no verdict': `no verdict: ${NOTHING_CHECKED}`,
    'no drift': 'no drift: the traffic agrees with the document and the rules it shows',
  };
  return lines[driftVerdict(report)];
}

export function consoleReport(report: DriftReport): string {
  const files = report.recordings.map((r) => `${r.file} (${r.creator}, ${r.exchanges} entries)`).join(', ');
  const lines = [
    `ofkit drift: ${report.checked} exchanges of the API checked against the document ${report.documentVersion}, ${report.operations.length} operations${notChecked(report)}`,
    `recordings: ${files}`,
    headline(report),
    ...report.drift.map(entryLine),
  ];
  if (report.rulesBroken.length > 0)
    lines.push(`rules broken: ${report.rulesBroken.map((r) => `${r.rule} (${r.exchanges})`).join(', ')}`);
  if (report.allowed.length > 0) {
    lines.push(`accepted (--allow): ${report.allowed.length} differences`);
    lines.push(...report.allowed.map((e) => `${entryLine(e)} [${e.allowed}]`));
  }
  if (report.unusedAllowances.length > 0)
    lines.push(`--allow entries that matched nothing: ${report.unusedAllowances.join(' | ')}`);
  if (report.client.length > 0)
    lines.push(
      `client side: ${report.client.length} kinds of request break the document (see the JSON report)`,
    );
  lines.push(
    `not exercised (traffic cannot show them): ${report.notExercised.map((r) => r.rule).join(', ')}`,
  );
  if (report.judge.length > 0) lines.push(consoleSummary(report.judge));
  return lines.join('\n');
}

export const jsonReport = (report: DriftReport) => `${JSON.stringify(report, null, 2)}\n`;

export function junitReport(report: DriftReport): string {
  const byOperation = new Map<string, DriftEntry[]>();
  for (const { operation } of report.operations) byOperation.set(operation, []);
  for (const entry of report.drift)
    byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), entry]);
  // No exchange checked: one failed case says so (a suite of no case reads as green in CI).
  const nothing: JUnitCase = {
    name: 'exchanges of the API',
    classname: 'ofkit.drift.operation',
    failure: { message: NOTHING_CHECKED, type: 'nothing-checked', details: '' },
  };
  const operations: JUnitSuite = {
    name: 'ofkit drift: operations',
    cases: [
      ...(driftVerdict(report) === 'no verdict' ? [nothing] : []),
      ...[...byOperation].map(([operation, entries]): JUnitCase => {
        const testCase = { name: operation, classname: 'ofkit.drift.operation' };
        if (entries.length === 0) return testCase;
        const message = `${entries.length} differences from the document`;
        return {
          ...testCase,
          failure: { message, type: 'drift', details: entries.map(entryLine).join('\n') },
        };
      }),
    ],
  };
  const rules: JUnitSuite = {
    name: 'ofkit drift: rules',
    cases: [
      ...report.rulesBroken.map(({ rule, exchanges }) => ({
        name: rule,
        classname: 'ofkit.drift.rule',
        failure: {
          message: `broken in ${exchanges} exchanges`,
          type: rule,
          details: report.drift
            .filter((e) => e.rule === rule)
            .map(entryLine)
            .join('\n'),
        },
      })),
      ...report.notExercised.map(({ rule, reason }) => ({
        name: rule,
        classname: 'ofkit.drift.rule',
        skipped: reason,
      })),
    ],
  };
  const judge: JUnitSuite[] = report.judge.map((tenant) => ({
    name: `ofkit client judge: ${tenant.tenant}`,
    cases: tenant.verdicts.map((v): JUnitCase => {
      const testCase = { classname: `ofkit.judge.${tenant.tenant}`, name: `${v.rule} ${v.title}` };
      if (v.verdict === 'not_exercised') return { ...testCase, skipped: v.summary };
      if (v.verdict === 'followed') return testCase;
      return { ...testCase, failure: { message: v.summary, details: [v.section, ...v.evidence].join('\n') } };
    }),
  }));
  return toJUnitXml('ofkit drift', [operations, rules, ...judge]);
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function markdownTable(entries: readonly DriftEntry[], withReason: boolean): string[] {
  const head = [
    '| exchanges | operation | status | difference | member / rule | example |',
    '|---:|---|---:|---|---|---|',
  ];
  const rows = entries.map(
    (e) =>
      `| ${e.count} | \`${cell(e.operation)}\` | ${e.status} | ${cell(e.message)}${withReason ? ` *(${cell(e.allowed ?? '')})*` : ''} | ${cell(where(e))} | ${cell(e.samples[0] ?? '')} |`,
  );
  return [...head, ...rows];
}

export function markdownReport(report: DriftReport): string {
  const verdict = {
    drift: `**Drift: ${report.drift.length} differences.**`,
    'no verdict': `**No verdict: ${NOTHING_CHECKED}.**`,
    'no drift': '**No drift.**',
  }[driftVerdict(report)];
  const lines = [
    '## ofkit drift',
    '',
    `${verdict} ${report.checked} exchanges of the API checked against the document ${report.documentVersion} (${report.operations.length} operations).`,
    '',
  ];
  if (report.drift.length > 0) lines.push(...markdownTable(report.drift, false), '');
  if (report.rulesBroken.length > 0)
    lines.push(
      `Rules broken: ${report.rulesBroken.map((r) => `\`${r.rule}\` (${r.exchanges})`).join(', ')}`,
      '',
    );
  if (report.allowed.length > 0)
    lines.push(
      '<details><summary>Accepted differences (--allow)</summary>',
      '',
      ...markdownTable(report.allowed, true),
      '',
      '</details>',
      '',
    );
  const violated = report.judge.flatMap((t) =>
    t.verdicts.filter((v) => v.verdict === 'violated').map((v) => `\`${v.rule}\` (${t.tenant})`),
  );
  lines.push(
    `Client judge: ${violated.length === 0 ? 'no rule violated' : `violated ${violated.join(', ')}`}.`,
    '',
  );
  lines.push(
    `Not exercised (traffic cannot show them): ${report.notExercised.map((r) => `\`${r.rule}\``).join(', ')}.`,
  );
  return `${lines.join('\n')}\n`;
}
