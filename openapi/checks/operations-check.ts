/** The document's operations against the specification's list (operations.tsv). */
import type { JsonObject } from '../validation/document-ajv.js';
import { listOperations } from './openapi-document.js';

/** API-ROOT: the one documented operation that operations.tsv does not list. */
export const EXTRA_OPERATIONS = new Set(['GET /api/']);

export interface OperationsReport {
  documented: number;
  missing: string[];
  unexpected: string[];
}

/** Parses operations.tsv (`method<TAB>path` with a header line) into `METHOD path` keys. */
export function parseOperationsTsv(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [method = '', path = ''] = line.split('\t');
      return `${method.toUpperCase()} ${path}`;
    });
}

export function checkOperations(document: JsonObject, specified: string[]): OperationsReport {
  const documented = new Set(listOperations(document).map((entry) => `${entry.method} ${entry.path}`));
  const expected = new Set(specified);
  return {
    documented: documented.size,
    missing: [...expected].filter((key) => !documented.has(key)),
    unexpected: [...documented].filter((key) => !expected.has(key) && !EXTRA_OPERATIONS.has(key)),
  };
}
