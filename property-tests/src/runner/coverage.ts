/**
 * API coverage: every answer the target gives during a run, set-up included, is matched to
 * its operation; a documented status counts as exhibited once an answer of it came with a body valid
 * against its schema (no body where none is declared). An operation is covered when it exhibited a
 * success (2xx) status. A green run must show that the target was really exercised.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { isObject } from '../../../openapi/document/json.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { HttpResponse } from '../http/http-client.js';
import { isJsonContentType } from '../rules/expect-response.js';
import { isListOperation } from '../rules/schema/drawn-list-queries.js';

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  /** Documented statuses the target answered with a valid body, with how many such answers. */
  exhibited: Record<string, number>;
  /** Documented statuses never exhibited. */
  missing: string[];
  /** Statuses answered that the document does not declare, or answers whose body broke the schema. */
  invalid: Record<string, number>;
  /** A success (2xx) status was exhibited. */
  success: boolean;
  /**
   * Every success answer was an empty list (a page without records, or `[]`): the status is shown, but
   * no record was ever checked against the operation's schema.
   */
  emptyListsOnly: boolean;
  /**
   * Why the operation cannot succeed in the target's environment (interface spec): left out of the
   * totals, its answers still listed.
   */
  unavailable?: string;
}

export interface CoverageTotal {
  covered: number;
  total: number;
  /** covered / total in percent, one decimal (100 when total is 0). */
  percent: number;
}

export interface Coverage {
  operations: CoverageTotal;
  statuses: CoverageTotal;
  perOperation: OperationCoverage[];
}

export interface CoverageRecorder {
  /** One answer of the target (any session). */
  observe(method: string, url: string, response: HttpResponse): void;
  /**
   * The operations a request is of: its method's at its path, else every one at its path (a method the
   * path does not offer); none for a path the document does not have.
   */
  operationsOf(method: string, url: string): string[];
  /** The coverage so far; `unavailable` operations (operationId -> reason) are left out of the totals. */
  report(unavailable?: ReadonlyMap<string, string>): Coverage;
}

interface Entry {
  operation: ApiOperation;
  pattern: RegExp;
  exhibited: Map<string, number>;
  invalid: Map<string, number>;
  /** A valid success answer held a record (a list with one, or an answer that is no list). */
  recordShown: boolean;
}

/**
 * How many records a success answer holds when it is a list: a page's `results` (a list operation's
 * envelope) or an array; undefined for an answer that is no list (one record, or no body).
 */
function listedRecords(operation: ApiOperation, json: unknown): number | undefined {
  if (Array.isArray(json)) return json.length;
  if (isListOperation(operation) && isObject(json) && Array.isArray(json.results)) return json.results.length;
  return undefined;
}

const total = (covered: number, all: number): CoverageTotal => ({
  covered,
  total: all,
  percent: all === 0 ? 100 : Math.floor((covered / all) * 1000) / 10,
});

function patternOf(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The statuses of an operation as documented (`default` is no status a target can exhibit). */
const documented = (operation: ApiOperation) =>
  [...operation.responses.keys()].filter((s) => /^\d+$/.test(s));

export function createCoverageRecorder(document: ApiDocument, operations: readonly ApiOperation[]) {
  // Literal paths before templated ones: `/api/links/` is no `{id}` of something else.
  const entries: Entry[] = [...operations]
    .sort((a, b) => a.path.split('{').length - b.path.split('{').length)
    .map((operation) => ({
      operation,
      pattern: patternOf(operation.path),
      exhibited: new Map(),
      invalid: new Map(),
      recordShown: false,
    }));

  function validBody(entry: Entry, status: string, response: HttpResponse): boolean {
    const declared = entry.operation.responses.get(status);
    if (!declared) return false;
    if (declared.schema === undefined) return response.text.length === 0;
    if (!isJsonContentType(response.contentType) || response.json === undefined) return false;
    return document.ajv.compile(declared.schema)(response.json) === true;
  }

  const pathOf = (url: string) => new URL(url, 'http://target').pathname;
  const entryOf = (method: string, url: string) => {
    const path = pathOf(url);
    return entries.find((e) => e.operation.method === method && e.pattern.test(path));
  };
  // The path's own entries: the literal path's, or the template's when no literal one matches.
  const atPath = (url: string) => {
    const matching = entries.filter((e) => e.pattern.test(pathOf(url)));
    const fewest = Math.min(...matching.map((e) => e.operation.path.split('{').length));
    return matching.filter((e) => e.operation.path.split('{').length === fewest);
  };

  return {
    operationsOf(method, url) {
      const own = entryOf(method, url);
      return own ? [own.operation.operationId] : atPath(url).map((e) => e.operation.operationId);
    },
    observe(method, url, response) {
      const entry = entryOf(method, url);
      if (!entry) return;
      const status = String(response.status);
      const seen = entry.exhibited.get(status);
      // One valid answer proves the status; later ones are counted without validating again (cost).
      const valid = seen === undefined ? validBody(entry, status, response) : undefined;
      if (seen !== undefined) entry.exhibited.set(status, seen + 1);
      else if (valid) entry.exhibited.set(status, 1);
      else entry.invalid.set(status, (entry.invalid.get(status) ?? 0) + 1);
      // A record shown takes a valid success answer holding one (validated once, as a status is).
      if (entry.recordShown || !status.startsWith('2')) return;
      if (listedRecords(entry.operation, response.json) === 0) return;
      entry.recordShown = valid ?? validBody(entry, status, response);
    },
    report(unavailable = new Map<string, string>()) {
      const perOperation = entries
        .map(({ operation, exhibited, invalid, recordShown }): OperationCoverage => {
          const statuses = documented(operation);
          const reason = unavailable.get(operation.operationId);
          const success = [...exhibited.keys()].some((status) => status.startsWith('2'));
          return {
            operationId: operation.operationId,
            method: operation.method,
            path: operation.path,
            exhibited: Object.fromEntries([...exhibited].sort()),
            missing: statuses.filter((status) => !exhibited.has(status)),
            invalid: Object.fromEntries([...invalid].sort()),
            success,
            emptyListsOnly: success && !recordShown,
            ...(reason === undefined ? {} : { unavailable: reason }),
          };
        })
        .sort((a, b) => operations.indexOf(byId(a)) - operations.indexOf(byId(b)));
      const counted = perOperation.filter((op) => op.unavailable === undefined);
      const statuses = counted.reduce((sum, op) => sum + Object.keys(op.exhibited).length, 0);
      const all = counted.reduce((sum, op) => sum + Object.keys(op.exhibited).length + op.missing.length, 0);
      return {
        operations: total(counted.filter((op) => op.success).length, counted.length),
        statuses: total(statuses, all),
        perOperation,
      };
    },
  } satisfies CoverageRecorder;

  function byId(coverage: OperationCoverage): ApiOperation {
    return operations.find((operation) => operation.operationId === coverage.operationId)!;
  }
}

/** `--min-coverage operations=N,statuses=M`: thresholds in percent. */
export interface CoverageThresholds {
  operations?: number;
  statuses?: number;
}

/** Each threshold the coverage falls below, as a sentence; empty when it meets them all. */
export function coverageShortfalls(coverage: Coverage, thresholds: CoverageThresholds): string[] {
  const shortfalls: string[] = [];
  for (const kind of ['operations', 'statuses'] as const) {
    const wanted = thresholds[kind];
    if (wanted !== undefined && coverage[kind].percent < wanted) {
      shortfalls.push(
        `${kind} coverage ${coverage[kind].percent}% is below --min-coverage ${kind}=${wanted}`,
      );
    }
  }
  return shortfalls;
}
