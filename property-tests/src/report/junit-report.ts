/**
 * JUnit XML for CI: one <testsuite> per area, one <testcase> per rule (named by its title); a failure
 * carries the message and the reproduction (replay command, counterexample, curl), a skip its reason.
 * An inconclusive rule and one skipped for the environment are skipped cases whose message says so
 * (`inconclusive: ...`, `skipped (environment): ...`); under --strict, which fails the run on an
 * inconclusive rule, that rule is a failure of type `inconclusive`, so the report agrees with the exit code.
 */

import { renderSuites, type SuitesForm } from '../../../openapi/report/render-suites.js';
import type { JUnitCase, JUnitSuite } from '../../../openapi/report/to-junit-xml.js';
import type { Coverage } from '../runner/coverage.js';
import type { RuleResult } from '../runner/run-rule.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { renderFailure } from './console-report.js';
import type { ReplayContext } from './replay-command.js';

const seconds = (ms: number) => ms / 1000;

function testcase(result: RuleResult, context: ReplayContext, strict: boolean): JUnitCase {
  const base = {
    classname: `ofkit.${result.area}`,
    name: result.title,
    seconds: seconds(result.durationMs),
    ...(result.notes.length > 0 && { systemOut: result.notes.join('\n') }),
  };
  if (result.status === 'inconclusive') {
    // An assertion never exercised is no pass: never a passed case.
    const message = `inconclusive: ${result.reason ?? ''}`;
    if (strict) return { ...base, failure: { message, type: 'inconclusive', details: message } };
    return { ...base, skipped: message };
  }
  if (result.status === 'skipped (environment)')
    return { ...base, skipped: `skipped (environment): ${result.reason ?? ''}` };
  if (result.status === 'skipped') return { ...base, skipped: result.reason ?? '' };
  if (result.status === 'failed') {
    const message = result.failure?.message.split('\n')[0] ?? 'failed';
    const details = renderFailure(result, context, true);
    return { ...base, failure: { message, type: result.id, details } };
  }
  return base;
}

/**
 * The API coverage as a testsuite of its own: totals as properties, one testcase per operation (skipped
 * when it never exhibited a success status; --min-coverage is the gate), the statuses in system-out.
 */
function coverageSuite(coverage: Coverage): JUnitSuite {
  const { operations, statuses } = coverage;
  const cases = coverage.perOperation.map((op): JUnitCase => {
    const seen = Object.entries(op.exhibited)
      .map(([status, n]) => `${status}x${n}`)
      .join(', ');
    return {
      classname: 'ofkit.coverage',
      name: op.operationId,
      seconds: 0,
      ...(op.unavailable !== undefined
        ? { skipped: `skipped (environment): ${op.unavailable}` }
        : !op.success && { skipped: 'no success status exhibited: not implemented?' }),
      systemOut: `exhibited: ${seen || 'none'}; never shown: ${op.missing.join(', ') || 'none'}`,
    };
  });
  const properties = [
    ['coverage.operations.covered', operations.covered],
    ['coverage.operations.total', operations.total],
    ['coverage.operations.percent', operations.percent],
    ['coverage.statuses.covered', statuses.covered],
    ['coverage.statuses.total', statuses.total],
    ['coverage.statuses.percent', statuses.percent],
  ] as const;
  return { name: 'coverage', cases, seconds: 0, properties, uncounted: true };
}

/** The run as JUnit XML (one suite per area, the coverage apart), or the same cases in Markdown. */
export function renderJunit(suite: SuiteResult, context: ReplayContext, form: SuitesForm = 'junit'): string {
  const areas = [...new Set(suite.results.map((result) => result.area))];
  const suites = areas.map((area): JUnitSuite => {
    const results = suite.results.filter((result) => result.area === area);
    const ms = results.reduce((sum, result) => sum + result.durationMs, 0);
    const cases = results.map((r) => testcase(r, context, suite.strict));
    return { name: area, cases, seconds: seconds(ms) };
  });
  const title = `ofkit check ${suite.baseUrl} (seed ${suite.seed})`;
  return renderSuites(form, title, [coverageSuite(suite.coverage), ...suites], seconds(suite.durationMs));
}
