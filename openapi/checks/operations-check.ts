/** The document's operations against the specification's list (fixtures/specified-operations.tsv). */
import { resolve } from 'node:path';
import { listOperations } from '../document/document-walk.js';
import type { JsonObject } from '../document/json.js';

/** API-ROOT: the one documented operation that the specification does not list. */
export const EXTRA_OPERATIONS = new Set(['GET /api/']);

export interface OperationsReport {
  documented: number;
  missing: string[];
  unexpected: string[];
}

/** Where the list lives: a fixture of the document checks. */
export const SPECIFIED_OPERATIONS_PATH = resolve(import.meta.dirname, 'fixtures/specified-operations.tsv');

/** Parses the list (`method<TAB>path`, `#` comments, a `method path` header) into `METHOD path` keys. */
export function parseOperationsTsv(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#') && line !== 'method\tpath')
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
