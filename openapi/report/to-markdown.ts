/**
 * The Markdown form of every report that has a JUnit form: the same suites and cases, as a person reads
 * them in a pull request's comment. A heading with the totals, then one table per suite: each case,
 * its result (passed, FAILED, skipped) and the one line that says why.
 */
import type { JUnitCase, JUnitSuite } from './to-junit-xml.js';

/** A table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\r?\n/g, ' ').replaceAll('|', '\\|').trim();

function result(testCase: JUnitCase): [string, string] {
  if (testCase.failure) return ['FAILED', testCase.failure.message];
  if (testCase.skipped !== undefined) return ['skipped', testCase.skipped];
  return ['passed', testCase.systemOut ?? ''];
}

function suiteTable(suite: JUnitSuite): string[] {
  const rows = suite.cases.map((testCase) => {
    const [outcome, why] = result(testCase);
    return `| ${cell(testCase.name)} | ${outcome} | ${cell(why)} |`;
  });
  const figures = (suite.properties ?? []).map(([name, value]) => `${name}: ${value}`).join(', ');
  return [
    `## ${cell(suite.name)}`,
    '',
    ...(figures ? [figures, ''] : []),
    '| case | result | why |',
    '|---|---|---|',
    ...rows,
    '',
  ];
}

/** The whole report: `# title`, the counted cases' totals, a table per suite. */
export function toMarkdown(title: string, suites: readonly JUnitSuite[]): string {
  const counted = suites.filter((suite) => !suite.uncounted).flatMap((suite) => suite.cases);
  const failed = counted.filter((c) => c.failure).length;
  const skipped = counted.filter((c) => !c.failure && c.skipped !== undefined).length;
  const totals = `${counted.length} cases: ${counted.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`;
  return [`# ${cell(title)}`, '', totals, '', ...suites.flatMap(suiteTable)].join('\n');
}
