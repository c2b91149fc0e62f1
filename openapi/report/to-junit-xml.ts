/**
 * The one JUnit XML writer of every ofkit report: the conformance suite (`ofkit check`), the Pact
 * commands (`pact check-spec`, `pact verify`) and the client judge. It lives under `openapi/` because
 * that is the lowest layer the simulator, the suite and the contracts all import already (it imports
 * nothing of theirs), so no report imports upward or sideways. One escaping for all of them.
 */

export interface JUnitCase {
  name: string;
  classname: string;
  /** A failure: a one-line message, an optional type (a rule ID, `inconclusive`) and the details. */
  failure?: { message: string; type?: string; details: string };
  /** Why the case did not run or was not exercised. */
  skipped?: string;
  /** Notes shown beside the case (`<system-out>`). */
  systemOut?: string;
  /**
   * A case that passed with a risk (the client judge's `warning`): JUnit has no such result, so it is
   * a passed case whose `<system-out>` starts with `WARNING:`; the Markdown form says `warning`.
   */
  warning?: string;
  seconds?: number;
}

export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
  seconds?: number;
  /** `<properties>`: figures a CI server can chart (e.g. coverage totals). */
  properties?: ReadonlyArray<readonly [string, string | number]>;
  /** Figures beside the tests (the suite's API coverage): left out of the root's totals. */
  uncounted?: boolean;
}

/** Characters XML 1.0 cannot hold (most control characters, e.g. ANSI colours, lone surrogates). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes text for XML 1.0 attributes and content: & < > " ' escaped, impossible characters dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const time = (seconds: number | undefined) => (seconds === undefined ? '' : ` time="${seconds.toFixed(3)}"`);

function caseXml(testCase: JUnitCase): string {
  const open = `    <testcase classname="${escapeXml(testCase.classname)}" name="${escapeXml(testCase.name)}"${time(testCase.seconds)}`;
  const inner: string[] = [];
  if (testCase.failure) {
    const { message, type, details } = testCase.failure;
    const typeAttribute = type === undefined ? '' : ` type="${escapeXml(type)}"`;
    inner.push(
      `      <failure message="${escapeXml(message)}"${typeAttribute}>${escapeXml(details)}</failure>`,
    );
  } else if (testCase.skipped !== undefined) {
    inner.push(`      <skipped message="${escapeXml(testCase.skipped)}"/>`);
  }
  const out = [testCase.warning && `WARNING: ${testCase.warning}`, testCase.systemOut].filter(Boolean);
  if (out.length > 0) inner.push(`      <system-out>${escapeXml(out.join('\n'))}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

const failed = (c: JUnitCase) => c.failure !== undefined;
const skipped = (c: JUnitCase) => c.failure === undefined && c.skipped !== undefined;
const counts = (cases: readonly JUnitCase[], seconds: number | undefined) =>
  `tests="${cases.length}" failures="${cases.filter(failed).length}" skipped="${cases.filter(skipped).length}" errors="0"${time(seconds)}`;

function suiteXml(suite: JUnitSuite): string[] {
  const properties = suite.properties?.length
    ? [
        '    <properties>',
        ...suite.properties.map(
          ([name, value]) =>
            `      <property name="${escapeXml(name)}" value="${escapeXml(String(value))}"/>`,
        ),
        '    </properties>',
      ]
    : [];
  return [
    `  <testsuite name="${escapeXml(suite.name)}" ${counts(suite.cases, suite.seconds)}>`,
    ...properties,
    ...suite.cases.map(caseXml),
    '  </testsuite>',
  ];
}

/** The whole document: one `<testsuite>` per suite inside `<testsuites name=title>`. */
export function toJUnitXml(title: string, suites: readonly JUnitSuite[], seconds?: number): string {
  const all = suites.filter((suite) => !suite.uncounted).flatMap((suite) => suite.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(title)}" ${counts(all, seconds)}>`,
    ...suites.flatMap(suiteXml),
    '</testsuites>',
    '',
  ].join('\n');
}
