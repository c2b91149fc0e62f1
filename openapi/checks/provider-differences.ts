/**
 * The reasons of provider-differences.yaml: each `match` (a regular expression over a difference line),
 * its `reason`, and the `spec:` that requires the difference: a rule ID of openapi/rules.yaml or a
 * section of the interface specification (the `sections:` list of rules.yaml). A rule marked choice
 * counts only with `provider:`, how the provider's published behaviour agrees with it. An entry with
 * `pending:` instead of `spec:` is a difference allowed only until the simulator's output changes.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Difference } from './provider-comparison.js';

export const PROVIDER_DIFFERENCES_PATH = resolve(import.meta.dirname, 'provider-differences.yaml');
const RULES_PATH = resolve(import.meta.dirname, '../rules.yaml');

export interface DifferenceReason {
  index: number;
  match: RegExp;
  reason: string;
  spec: string[];
  provider?: string;
  pending?: string;
}

export interface CitationCatalogue {
  rules: { id: string; choice: boolean }[];
  sections: string[];
}

/** The entries of provider-differences.yaml (malformed ones are reported by `checkCitations`). */
export function parseDifferenceReasons(text: string): DifferenceReason[] {
  const entries = parseYaml(text) as Record<string, unknown>[] | null;
  return (entries ?? []).map((entry, index) => ({
    index,
    match: new RegExp(String(entry.match ?? '(?!)')),
    reason: String(entry.reason ?? ''),
    spec: (Array.isArray(entry.spec) ? entry.spec : entry.spec === undefined ? [] : [entry.spec]).map(String),
    ...(typeof entry.provider === 'string' && { provider: entry.provider }),
    ...(typeof entry.pending === 'string' && { pending: entry.pending }),
  }));
}

export function loadDifferenceReasons(path = PROVIDER_DIFFERENCES_PATH): DifferenceReason[] {
  return parseDifferenceReasons(readFileSync(path, 'utf8'));
}

/** The spec's sections as rules.yaml names them (`sections:`). */
export function loadSpecSections(path = RULES_PATH): string[] {
  const document = parseYaml(readFileSync(path, 'utf8')) as { sections?: unknown };
  return Array.isArray(document.sections) ? document.sections.map(String) : [];
}

/** `Errors`, `Rules on fields 1`: a section, optionally with the number of an item in it. */
function isSection(citation: string, sections: string[]): boolean {
  return sections.includes(citation.replace(/ \d+(-\d+)?$/, ''));
}

/** Problems of the entries' citations, one line each (none: every reason cites the spec). */
export function checkCitations(reasons: DifferenceReason[], catalogue: CitationCatalogue): string[] {
  const problems: string[] = [];
  const rules = new Map(catalogue.rules.map((rule) => [rule.id, rule]));
  for (const entry of reasons) {
    const name = `provider-differences entry ${entry.index + 1} (${entry.match.source.slice(0, 60)})`;
    if (entry.reason.trim() === '') problems.push(`${name}: no reason`);
    if (entry.pending !== undefined) {
      if (entry.spec.length > 0) problems.push(`${name}: pending and cited at once`);
      continue;
    }
    if (entry.spec.length === 0) problems.push(`${name}: no spec citation`);
    for (const citation of entry.spec)
      if (!rules.has(citation) && !isSection(citation, catalogue.sections))
        problems.push(
          `${name}: spec cites ${citation}, which is neither a rule ID nor a section of the spec`,
        );
    const onlyChoices = entry.spec.length > 0 && entry.spec.every((c) => rules.get(c)?.choice === true);
    if (onlyChoices && entry.provider === undefined)
      problems.push(`${name}: cites only choice rules and says not how the provider's behaviour agrees`);
  }
  return problems;
}

export interface Explained {
  unexplained: Difference[];
  byReason: Map<DifferenceReason, Difference[]>;
  unused: DifferenceReason[];
}

/** Sorts the differences by the first reason whose `match` takes their line. */
export function explainDifferences(differences: Difference[], reasons: DifferenceReason[]): Explained {
  const byReason = new Map<DifferenceReason, Difference[]>();
  const unexplained: Difference[] = [];
  for (const difference of differences) {
    const reason = reasons.find((r) => r.match.test(difference.line));
    if (reason === undefined) unexplained.push(difference);
    else byReason.set(reason, [...(byReason.get(reason) ?? []), difference]);
  }
  return { unexplained, byReason, unused: reasons.filter((r) => !byReason.has(r)) };
}
