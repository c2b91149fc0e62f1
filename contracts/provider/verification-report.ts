/**
 * The outcome of a verification, interaction by interaction: Pact's results (the verifier's JSON)
 * joined with the state log. An interaction whose state needs the control API the provider lacks is
 * `unverifiable`, never passed; one whose state could not be set up has failed.
 */
import { renderSuites, type SuitesForm } from '../../openapi/report/render-suites.js';
import type { JUnitSuite } from '../../openapi/report/to-junit-xml.js';
import type { ControlApiSupport } from './provider-api.js';
import type { InteractionStates } from './state-handlers.js';

export type OutcomeStatus = 'passed' | 'failed' | 'unverifiable';

export interface InteractionOutcome {
  description: string;
  states: string[];
  status: OutcomeStatus;
  /** Why it failed or could not be verified, in words. */
  reasons: string[];
}

export interface VerificationReport {
  baseUrl: string;
  controlApi: ControlApiSupport;
  outcomes: InteractionOutcome[];
  /** State problems the report could not tie to an interaction. */
  unattributed: string[];
  seconds: number;
  /** Every interaction passed (and there was at least one). */
  ok: boolean;
}

/** The part of the verifier's JSON results the report reads. */
export interface VerifierResults {
  interactionResults?: { description?: string; result?: unknown }[];
  errors?: { interaction?: string; mismatch?: unknown }[];
}

function mismatchLines(mismatch: unknown): string[] {
  const value = (mismatch ?? {}) as { mismatches?: unknown[]; message?: unknown };
  if (Array.isArray(value.mismatches)) {
    return value.mismatches.map((item) => {
      const { path, mismatch: text } = (item ?? {}) as { path?: unknown; mismatch?: unknown };
      return `${typeof path === 'string' && path !== '' ? `${path}: ` : ''}${String(text ?? JSON.stringify(item))}`;
    });
  }
  return [typeof value.message === 'string' ? value.message : JSON.stringify(mismatch)];
}

function reasonsFor(results: VerifierResults, description: string): string[] {
  const errors = (results.errors ?? []).filter((error) => error.interaction?.endsWith(` - ${description}`));
  return errors.flatMap((error) => mismatchLines(error.mismatch));
}

function outcomeOf(
  results: VerifierResults,
  index: number,
  log: InteractionStates | undefined,
): InteractionOutcome {
  const result = results.interactionResults?.[index] ?? {};
  const description = String(result.description ?? `interaction ${index + 1}`);
  const states = log?.states.filter((state) => state !== '') ?? [];
  const problems = log?.problems ?? [];
  const unverifiable = problems.filter((problem) => problem.kind === 'unverifiable');
  if (unverifiable.length > 0) {
    const reasons = unverifiable.map((problem) => `state "${problem.state}" ${problem.message}`);
    return { description, states, status: 'unverifiable', reasons };
  }
  const reasons = [
    ...problems.map((problem) => `state "${problem.state}" could not be set up: ${problem.message}`),
    ...(result.result === 'OK' ? [] : reasonsFor(results, description)),
  ];
  const passed = result.result === 'OK' && problems.length === 0;
  return { description, states, status: passed ? 'passed' : 'failed', reasons };
}

/** Errors of the verifier that belong to no interaction (a pact that did not load, a broker error). */
function generalErrors(results: VerifierResults): string[] {
  const descriptions = (results.interactionResults ?? []).map((result) => ` - ${String(result.description)}`);
  return (results.errors ?? [])
    .filter((error) => !descriptions.some((suffix) => error.interaction?.endsWith(suffix)))
    .map((error) => `${error.interaction ?? 'error'}: ${mismatchLines(error.mismatch).join('; ')}`);
}

/** Joins the verifier's results with the state log (both in the verifier's order). */
export function buildOutcomes(
  results: VerifierResults,
  log: readonly InteractionStates[],
): { outcomes: InteractionOutcome[]; unattributed: string[] } {
  const count = results.interactionResults?.length ?? 0;
  const aligned = log.length === count;
  const outcomes = Array.from({ length: count }, (_, index) =>
    outcomeOf(results, index, aligned ? log[index] : undefined),
  );
  const stateProblems = aligned
    ? []
    : log.flatMap((entry) => entry.problems.map((problem) => `state "${problem.state}": ${problem.message}`));
  return { outcomes, unattributed: [...generalErrors(results), ...stateProblems] };
}

const MARKS: Record<OutcomeStatus, string> = { passed: '✓', failed: '✗', unverifiable: '?' };

/** The summary printed after Pact's own output. */
export function describeVerification(report: VerificationReport): string {
  const control = report.controlApi.available
    ? 'control API available'
    : `no control API (${report.controlApi.reason})`;
  const lines = [`Pact verification of ${report.baseUrl} (${control})`];
  for (const outcome of report.outcomes) {
    const given = outcome.states.length > 0 ? `  [given ${outcome.states.join('; ')}]` : '';
    lines.push(`  ${MARKS[outcome.status]} ${outcome.description}${given}`);
    for (const reason of outcome.reasons) lines.push(`      - ${reason}`);
  }
  for (const problem of report.unattributed) lines.push(`  ! ${problem}`);
  const count = (status: OutcomeStatus) => report.outcomes.filter((o) => o.status === status).length;
  lines.push(
    `${report.outcomes.length} interaction${report.outcomes.length === 1 ? '' : 's'}: ${count('passed')} passed, ${count('failed')} failed, ` +
      `${count('unverifiable')} unverifiable (${report.seconds.toFixed(1)} s)`,
  );
  return lines.join('\n');
}

/** One suite, one case per interaction; unverifiable interactions are skipped cases with the reason. */
export function verificationJUnit(report: VerificationReport, form: SuitesForm = 'junit'): string {
  const suite: JUnitSuite = {
    name: `pact verify ${report.baseUrl}`,
    cases: report.outcomes.map((outcome) => ({
      name: outcome.description,
      classname: 'pact-verify',
      ...(outcome.status === 'failed' && {
        failure: { message: outcome.reasons[0] ?? 'failed', details: outcome.reasons.join('\n') },
      }),
      ...(outcome.status === 'unverifiable' && { skipped: outcome.reasons.join('; ') }),
    })),
  };
  return renderSuites(form, 'ofkit pact verify', [suite]);
}
