/**
 * The error catalogue and the document stay in step (ERR-BODY): every code the document's examples show
 * is one the simulator can answer, every status of the catalogue is one the document declares (or one
 * answered before any operation is known), and every code of the catalogue is used.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { isObject, type JsonValue } from '../../../openapi/document/json.js';
import { ERROR_CATALOGUE } from './api-error.js';

const api = readBundledDocument('api');
const admin = readBundledDocument('admin');
/**
 * Statuses answered before an operation is known, which no operation declares: the router's 405, the
 * adapter's body, target and header limits (413, 414, 431), its media type check (415) and its refusal
 * of a Host the simulator does not answer for (421).
 */
const BEFORE_ANY_OPERATION = new Set([405, 413, 414, 415, 421, 431]);

/** The `code` of every error item in the document's examples. */
function exampleCodes(node: JsonValue | undefined, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) {
      if (isObject(item) && typeof item.code === 'string' && typeof item.request_id === 'string')
        into.add(item.code);
      else exampleCodes(item, into);
    }
  } else if (isObject(node)) {
    for (const child of Object.values(node)) exampleCodes(child, into);
  }
  return into;
}

function declaredStatuses(): Set<number> {
  const statuses = new Set<number>();
  for (const document of [api, admin])
    for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, JsonValue>>))
      for (const operation of Object.values(item))
        if (isObject(operation) && isObject(operation.responses))
          for (const status of Object.keys(operation.responses)) statuses.add(Number(status));
  return statuses;
}

function sourceText(folder: string): string {
  return readdirSync(folder)
    .map((entry) => join(folder, entry))
    .map((path) =>
      statSync(path).isDirectory()
        ? sourceText(path)
        : path.endsWith('.ts') && !path.endsWith('.test.ts')
          ? readFileSync(path, 'utf8')
          : '',
    )
    .join('\n');
}

describe('ERR-BODY: the error catalogue and the document', () => {
  it('every code in the document’s error examples is a code of the catalogue', () => {
    const codes = [...exampleCodes(api as JsonValue), ...exampleCodes(admin as JsonValue)];
    expect(codes.length).toBeGreaterThan(5);
    expect(codes.filter((code) => !Object.hasOwn(ERROR_CATALOGUE, code))).toEqual([]);
  });

  it('every status of the catalogue is declared by an operation or answered before one is known', () => {
    const declared = declaredStatuses();
    const undeclared = Object.entries(ERROR_CATALOGUE)
      .filter(([, { status }]) => !declared.has(status) && !BEFORE_ANY_OPERATION.has(status))
      .map(([code, { status }]) => `${code} (${status})`);
    expect(undeclared).toEqual([]);
  });

  it('every code of the catalogue is answered somewhere in the simulator', () => {
    const source = sourceText(join(import.meta.dirname, '..'));
    const unused = Object.keys(ERROR_CATALOGUE).filter((code) => !source.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });
});
