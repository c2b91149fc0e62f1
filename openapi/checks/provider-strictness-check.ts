/**
 * The document is never stricter than the provider without a reason the spec gives: on every operation
 * shared with the provider's published schema, at any depth, a member of an answer (or of a request
 * body or query) that refuses what the provider's accepts (required where the provider's record may
 * omit it, a narrower type, no null where it allows null, an enum missing one of its values, a format,
 * pattern, const or bound it does not state, a closed object, a status it answers that ours lacks)
 * must be explained by an entry of provider-differences.yaml that cites the spec. Every entry cites a
 * rule ID or a section of the spec, and explains at least one such difference (no stale entries).
 */
import type { JsonObject } from '../document/json.js';
import { compareWithProvider, type Difference } from './provider-comparison.js';
import {
  type CitationCatalogue,
  checkCitations,
  type DifferenceReason,
  explainDifferences,
} from './provider-differences.js';
import type { ProviderFacts } from './provider-facts.js';

export interface StrictnessReport {
  /** Operations of the provider's facts compared. */
  operations: number;
  stricter: number;
  /** Stricter differences explained by a cited entry. */
  cited: number;
  /** Stricter differences allowed only until the simulator's output changes (entries with `pending:`). */
  pending: number;
  unexplained: Difference[];
  citationProblems: string[];
  unused: DifferenceReason[];
}

export function checkProviderStrictness(
  document: JsonObject,
  facts: ProviderFacts,
  reasons: DifferenceReason[],
  catalogue: CitationCatalogue,
): StrictnessReport {
  const stricter = compareWithProvider(document, facts).filter((d) => d.kind === 'stricter');
  const { unexplained, byReason, unused } = explainDifferences(stricter, reasons);
  const pendingCount = [...byReason]
    .filter(([r]) => r.pending !== undefined)
    .reduce((n, [, l]) => n + l.length, 0);
  const leftOutProblems = checkCitations(
    facts.left_out.map((left, index) => ({
      index,
      match: new RegExp(left.components),
      reason: left.reason,
      spec: [left.spec],
    })),
    catalogue,
  ).map((problem) => problem.replace('provider-differences entry', 'provider facts: left-out part'));
  return {
    operations: Object.keys(facts.operations).length,
    stricter: stricter.length,
    cited: stricter.length - unexplained.length - pendingCount,
    pending: pendingCount,
    unexplained,
    citationProblems: [...checkCitations(reasons, catalogue), ...leftOutProblems],
    unused,
  };
}

/** The report as failure lines (none: the check passes). */
export function strictnessFailures(report: StrictnessReport): string[] {
  return [
    ...report.unexplained.map((d) => `stricter than the provider, with no cited reason: ${d.line}`),
    ...report.citationProblems,
    ...report.unused.map(
      (r) => `provider-differences entry ${r.index + 1} explains no difference: ${r.match.source}`,
    ),
  ];
}
