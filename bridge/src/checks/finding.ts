/** What a check reports about one exchange: a difference from the document, or a rule the traffic broke. */

export type FindingKind =
  /** A path (or method) the document does not have, answered as if it were an operation. */
  | 'undocumented-operation'
  /** A status the operation does not document. */
  | 'undocumented-status'
  /** A member the answer holds that the document does not name. */
  | 'undocumented-member'
  /** A member the document requires that the answer left out. */
  | 'missing-required'
  /** A value outside the member's `enum` or `const`. */
  | 'enum'
  /** A value outside the member's `format` or `pattern`. */
  | 'format'
  /** Any other way the answer breaks its schema (a type, a bound). */
  | 'schema'
  /** A request the document refuses, answered with a success (the API is more lenient than its document). */
  | 'accepted-invalid'
  /** A behavioural rule of the catalogue the exchange, or the exchanges before it, broke. */
  | 'rule'
  /** A request that breaks the document (the client's side; the server's answer to it is judged apart). */
  | 'request';

export interface Finding {
  kind: FindingKind;
  /** The rule ID (openapi/rules.yaml) the finding is evidence against, when there is one. */
  rule?: string;
  /** `operationId`, or `METHOD /path` for an undocumented one. */
  operation: string;
  status: number;
  /** The member concerned, `a.b[].c`. */
  member?: string;
  /** One line: what was seen, what the document or the rule says. */
  message: string;
  /** A short sample of the value concerned (from the redacted exchange). */
  sample?: string;
  /** The exchange's position in its recording (0-based). */
  exchange: number;
}

const SAMPLE_LENGTH = 60;

/** A short text of a JSON value, for a finding's sample. */
export function sampleOf(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > SAMPLE_LENGTH ? `${text.slice(0, SAMPLE_LENGTH)}...` : text;
}

/** Findings that concern the server (every kind but `request`). */
export const isServerFinding = (finding: Finding) => finding.kind !== 'request';
