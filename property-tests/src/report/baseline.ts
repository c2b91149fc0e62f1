/**
 * Gating on regressions (`ofkit check --baseline report.json`): a team adopting the gate gradually fails
 * its CI on what got worse, not on what was already known. An earlier JSON report is the baseline; the
 * run fails only on a rule that passed there and fails now, or on a failure whose signature the baseline
 * does not hold. A signature is the rule, the operation the failing request was of, and the message with
 * its values left out (numbers, ids, quoted values, bodies; the HTTP statuses it names stay), so that the
 * same fault seen with other data is still known. What failed there and passes now is said, as what
 * improved.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { isObject } from '../../../openapi/document/json.js';
import type { RuleResult } from '../runner/run-rule.js';

/** A rule as the baseline holds it. */
export interface BaselineRule {
  id: string;
  status: string;
  signatures: string[];
}

export interface Baseline {
  path: string;
  rules: Map<string, BaselineRule>;
}

export interface BaselineVerdict {
  /** Rules failing now that the baseline does not excuse, each with why. */
  regressions: { id: string; why: string }[];
  /** Rules failing now as they failed in the baseline. */
  known: string[];
  /** Rules that failed in the baseline and do not now. */
  improved: string[];
}

const BRACKETS: Record<string, string> = { '{': '}', '[': ']' };

/** `text` with each JSON object or array (a body, a counterexample) replaced by `…`. */
function withoutBodies(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const open = text[i]!;
    const next = text[i + 1] ?? '';
    // A JSON value opens with `{"`, `[{`, `["`, `[]`, `{}` or `[` and a digit; `{id}` is a path's template.
    if (!(open in BRACKETS) || !/["{[\]}\d-]/.test(next)) {
      out += open;
      continue;
    }
    let depth = 0;
    let inString = false;
    let j = i;
    for (; j < text.length; j += 1) {
      const c = text[j]!;
      if (inString) {
        if (c === '\\') j += 1;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth += 1;
      else if ((c === '}' || c === ']') && --depth === 0) break;
    }
    out += '…';
    i = j;
  }
  return out;
}

/** An HTTP status the message names (`got 404`, `answered 201`, `wanted 400 or 404`): kept. */
const STATUS = /\b(got|answered|wanted|or|gets|get) ([1-5]\d\d)\b/g;

/** The message with its values left out: what stays is what the target did wrong, not with which data. */
export function normalizeMessage(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return withoutBodies(first)
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/'(?:[^'\\]|\\.)*'/g, "''")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '#')
    .replace(/\b[0-9a-f]{16,}\b/gi, '#')
    .replace(STATUS, '$1 HTTP$2')
    .replace(/\d+(\.\d+)?/g, (digits, _fraction, at: number, text: string) =>
      text.slice(Math.max(0, at - 4), at) === 'HTTP' ? digits : '#',
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/** The signatures a result fails with (none when it does not fail; `strict`: inconclusive fails too). */
export function failureSignatures(
  result: Pick<RuleResult, 'id' | 'status' | 'reason' | 'failure'>,
  strict: boolean,
): string[] {
  if (result.status === 'failed' && result.failure) {
    const operation = result.failure.operation ?? '';
    return [`${result.id} | ${operation} | ${normalizeMessage(result.failure.message)}`];
  }
  if (strict && result.status === 'inconclusive')
    return [`${result.id} | | inconclusive: ${normalizeMessage(result.reason ?? '')}`];
  return [];
}

/** Reads a JSON report of `ofkit check` as a baseline; a file that is none is a configuration error. */
export function readBaseline(path: string, strict: boolean): Baseline {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read the baseline ${path}: ${(error as Error).message}`);
  }
  const format = isObject(json) ? json.format : undefined;
  if (
    !isObject(json) ||
    typeof format !== 'string' ||
    !format.startsWith('ofkit-check-report/') ||
    !Array.isArray(json.rules)
  )
    throw new ConfigError(
      `The baseline ${path} is not a JSON report of ofkit check (--report json:PATH, --write-baseline PATH)`,
    );
  const rules = new Map<string, BaselineRule>();
  for (const rule of json.rules.filter(isObject)) {
    const result = rule as unknown as RuleResult;
    if (typeof result.id !== 'string' || typeof result.status !== 'string') continue;
    rules.set(result.id, {
      id: result.id,
      status: result.status,
      signatures: failureSignatures(result, strict),
    });
  }
  return { path, rules };
}

/** The run's results judged against the baseline. */
export function compareWithBaseline(
  results: readonly RuleResult[],
  baseline: Baseline,
  strict: boolean,
): BaselineVerdict {
  const verdict: BaselineVerdict = { regressions: [], known: [], improved: [] };
  for (const result of results) {
    const before = baseline.rules.get(result.id);
    const now = failureSignatures(result, strict);
    if (now.length === 0) {
      if (before && before.signatures.length > 0) verdict.improved.push(result.id);
      continue;
    }
    if (before?.status === 'passed') {
      verdict.regressions.push({ id: result.id, why: 'passed in the baseline, fails now' });
      continue;
    }
    const unknown = now.filter((signature) => !before?.signatures.includes(signature));
    if (unknown.length === 0) verdict.known.push(result.id);
    else
      verdict.regressions.push({ id: result.id, why: `a failure the baseline does not have: ${unknown[0]}` });
  }
  return verdict;
}

/** The console lines of the comparison. */
export function renderBaseline(verdict: BaselineVerdict, baseline: Baseline): string[] {
  const lines = [
    `baseline ${baseline.path}: ${verdict.known.length} failing rules known there, ${verdict.regressions.length} regressions`,
  ];
  if (verdict.improved.length > 0)
    lines.push(`improved since the baseline (failed there, not now): ${verdict.improved.join(', ')}`);
  for (const { id, why } of verdict.regressions) lines.push(`REGRESSION ${id}: ${why}`);
  return lines;
}
