/**
 * JUnit XML for CI: one <testsuite> per area, one <testcase> per rule (named by its title); a failure
 * carries the message and the reproduction (replay command, counterexample, curl), a skip its reason.
 */
import type { Coverage } from '../runner/coverage.js';
import type { RuleResult } from '../runner/run-rule.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { renderFailure } from './console-report.js';
import type { ReplayContext } from './replay-command.js';

/** Escapes text for XML attributes and content; drops characters XML 1.0 cannot hold. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const time = (ms: number) => (ms / 1000).toFixed(3);

function testcase(result: RuleResult, context: ReplayContext): string {
  const open = `    <testcase classname="ofkit.${xmlEscape(result.area)}" name="${xmlEscape(result.title)}" time="${time(result.durationMs)}"`;
  const notes =
    result.notes.length > 0 ? `      <system-out>${xmlEscape(result.notes.join('\n'))}</system-out>\n` : '';
  if (result.status === 'inconclusive') {
    // An assertion never reached is no pass: a failure of its own type, so CI does not show it green.
    const message = xmlEscape(`inconclusive: ${result.reason ?? ''}`);
    return `${open}>\n      <failure message="${message}" type="inconclusive">${message}</failure>\n${notes}    </testcase>`;
  }
  if (result.status === 'skipped') {
    return `${open}>\n      <skipped message="${xmlEscape(result.reason ?? '')}"/>\n${notes}    </testcase>`;
  }
  if (result.status === 'failed') {
    const message = xmlEscape(result.failure?.message.split('\n')[0] ?? 'failed');
    const body = xmlEscape(renderFailure(result, context));
    return `${open}>\n      <failure message="${message}" type="${result.id}">${body}</failure>\n${notes}    </testcase>`;
  }
  return notes ? `${open}>\n${notes}    </testcase>` : `${open}/>`;
}

/**
 * The API coverage as a testsuite of its own: totals as properties, one testcase per operation (skipped
 * when it never exhibited a success status; --min-coverage is the gate), the statuses in system-out.
 */
function coverageSuite(coverage: Coverage): string {
  const { operations, statuses } = coverage;
  const properties = [
    ['coverage.operations.covered', operations.covered],
    ['coverage.operations.total', operations.total],
    ['coverage.operations.percent', operations.percent],
    ['coverage.statuses.covered', statuses.covered],
    ['coverage.statuses.total', statuses.total],
    ['coverage.statuses.percent', statuses.percent],
  ].map(([name, value]) => `      <property name="${name}" value="${value}"/>`);
  const cases = coverage.perOperation.map((op) => {
    const seen = Object.entries(op.exhibited)
      .map(([status, n]) => `${status}x${n}`)
      .join(', ');
    const out = xmlEscape(`exhibited: ${seen || 'none'}; never shown: ${op.missing.join(', ') || 'none'}`);
    const name = `${xmlEscape(op.operationId)}`;
    const failure = op.success ? '' : '\n      <skipped message="no success status exhibited"/>';
    return `    <testcase classname="ofkit.coverage" name="${name}" time="0">${failure}\n      <system-out>${out}</system-out>\n    </testcase>`;
  });
  const missing = coverage.perOperation.filter((op) => !op.success).length;
  return `  <testsuite name="coverage" tests="${cases.length}" failures="0" errors="0" skipped="${missing}" time="0">\n    <properties>\n${properties.join('\n')}\n    </properties>\n${cases.join('\n')}\n  </testsuite>`;
}

export function renderJunit(suite: SuiteResult, context: ReplayContext): string {
  const areas = [...new Set(suite.results.map((result) => result.area))];
  const count = (results: RuleResult[], status: string) =>
    results.filter((r) => r.status === status || (status === 'failed' && r.status === 'inconclusive')).length;
  const suites = areas.map((area) => {
    const results = suite.results.filter((result) => result.area === area);
    const ms = results.reduce((sum, result) => sum + result.durationMs, 0);
    const attributes = `name="${xmlEscape(area)}" tests="${results.length}" failures="${count(results, 'failed')}" errors="0" skipped="${count(results, 'skipped')}" time="${time(ms)}"`;
    return `  <testsuite ${attributes}>\n${results.map((r) => testcase(r, context)).join('\n')}\n  </testsuite>`;
  });
  const all = suite.results;
  const root = `name="ofkit check ${xmlEscape(suite.baseUrl)} (seed ${suite.seed})" tests="${all.length}" failures="${count(all, 'failed')}" errors="0" skipped="${count(all, 'skipped')}" time="${time(suite.durationMs)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${root}>\n${coverageSuite(suite.coverage)}\n${suites.join('\n')}\n</testsuites>\n`;
}
