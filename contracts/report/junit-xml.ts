/** JUnit XML, the report CI servers read, for `pact check-spec` and `pact verify`. */

export interface JUnitCase {
  name: string;
  classname: string;
  /** A failure: a one-line message and the details. */
  failure?: { message: string; details: string };
  /** Why the case could not run (e.g. a provider state needs the control API). */
  skipped?: string;
  seconds?: number;
}

export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
}

/** XML 1.0 has no place for most control characters (e.g. the ANSI colours of tool output). */
const isXmlCharacter = (character: string) => {
  const code = character.codePointAt(0) ?? 0;
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
};

const escapeXml = (text: string) =>
  [...text]
    .filter(isXmlCharacter)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function caseXml(testCase: JUnitCase): string {
  const time = testCase.seconds === undefined ? '' : ` time="${testCase.seconds.toFixed(3)}"`;
  const open = `    <testcase classname="${escapeXml(testCase.classname)}" name="${escapeXml(testCase.name)}"${time}`;
  if (testCase.failure) {
    const { message, details } = testCase.failure;
    return `${open}>\n      <failure message="${escapeXml(message)}">${escapeXml(details)}</failure>\n    </testcase>`;
  }
  if (testCase.skipped !== undefined) {
    return `${open}>\n      <skipped message="${escapeXml(testCase.skipped)}"/>\n    </testcase>`;
  }
  return `${open}/>`;
}

/** The whole document: one `<testsuite>` per suite inside `<testsuites name=title>`. */
export function toJUnitXml(title: string, suites: readonly JUnitSuite[]): string {
  const count = (suite: JUnitSuite, pick: (c: JUnitCase) => boolean) => suite.cases.filter(pick).length;
  const total = (pick: (c: JUnitCase) => boolean) =>
    suites.reduce((sum, suite) => sum + count(suite, pick), 0);
  const failed = (c: JUnitCase) => c.failure !== undefined;
  const skipped = (c: JUnitCase) => c.skipped !== undefined;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(title)}" tests="${total(() => true)}" failures="${total(failed)}" skipped="${total(skipped)}">`,
  ];
  for (const suite of suites) {
    lines.push(
      `  <testsuite name="${escapeXml(suite.name)}" tests="${suite.cases.length}" failures="${count(suite, failed)}" skipped="${count(suite, skipped)}">`,
      ...suite.cases.map(caseXml),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
