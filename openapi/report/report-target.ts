/**
 * `--report KIND:PATH` and `--judge-report KIND:PATH`: the one grammar of every ofkit command that
 * writes a report (check, pact, record, proxy, drift, replay, simulate, exec), with the same kinds
 * everywhere: JUnit XML for a CI server, JSON for a program, Markdown for a person (a pull request's
 * comment). A value it cannot use is a ConfigError: one line, exit code 2.
 */
import { ConfigError } from '../config/config-error.js';

export const REPORT_KINDS = ['junit', 'json', 'md'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface ReportTarget {
  readonly kind: ReportKind;
  readonly path: string;
}

const TARGET = /^(junit|json|md):(.+)$/;

/** One `KIND:PATH` value of `flag`. */
export function parseReportTarget(text: string, flag = '--report'): ReportTarget {
  const match = TARGET.exec(text);
  if (!match) throw new ConfigError(`${flag} wants junit:PATH, json:PATH or md:PATH, got "${text}"`);
  return Object.freeze({ kind: match[1] as ReportKind, path: match[2] as string });
}
