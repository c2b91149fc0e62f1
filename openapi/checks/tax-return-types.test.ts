/**
 * TAX-RETURNS-MIXED as the provider's records say it: its published tax-return examples spell `type`
 * `yearly` and `monthly` (as its retrieval request does), and some yearly returns have none. Records of
 * each kind, so typed, validate against the document's TaxReturn and land in the oneOf branch of their
 * kind; a yearly return typed `YEARLY`, which a server following this document before sent, still
 * validates (read as another kind of return: the document is never stricter than the real API).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDocumentAjv } from '../document/document-ajv.js';
import { isObject, type JsonObject } from '../document/json.js';

const root = resolve(import.meta.dirname, '../..');
const bundled = JSON.parse(readFileSync(join(root, 'openapi/generated/openapi.json'), 'utf8')) as JsonObject;
const schemas = (bundled.components as { schemas: Record<string, JsonObject> }).schemas;
const ajv = createDocumentAjv(bundled);

/** The provider's spellings of a tax return's `type` in its published examples (1.35.0). */
const PROVIDER_TYPES = { yearly: ['yearly', undefined], monthly: ['monthly'] } as const;

/** The document's own example of a kind, from the list operation's example page. */
function example(kind: 'yearly' | 'monthly'): JsonObject {
  const list = (bundled.paths as JsonObject)['/api/tax-returns/'] as JsonObject;
  const content = ((list.get as JsonObject).responses as JsonObject)['200'] as JsonObject;
  const page = ((content.content as JsonObject)['application/json'] as JsonObject).example as JsonObject;
  const found = (page.results as JsonObject[]).find((record) => record.type === kind);
  if (!isObject(found)) throw new Error(`the document has no ${kind} tax return example`);
  return found;
}

const branchValid = (name: string, record: JsonObject) =>
  ajv.compile({ $ref: `#/components/schemas/${name}` })(record) === true;

describe('TAX-RETURNS-MIXED: tax returns typed as the provider types them', () => {
  it('the document examples spell `type` as the provider does', () => {
    expect(example('yearly').type).toBe('yearly');
    expect(example('monthly').type).toBe('monthly');
    expect(schemas.TaxReturnYearly).toBeDefined();
  });

  for (const [kind, spellings] of Object.entries(PROVIDER_TYPES) as [
    'yearly' | 'monthly',
    readonly (string | undefined)[],
  ][]) {
    for (const type of spellings) {
      it(`a ${kind} return with type ${type ?? '(none)'} validates as a ${kind} one`, () => {
        const { type: _type, ...record } = example(kind);
        const typed = type === undefined ? record : { ...record, type };
        expect(branchValid('TaxReturn', typed)).toBe(true);
        const own = kind === 'yearly' ? 'TaxReturnYearly' : 'TaxReturnMonthly';
        const other = kind === 'yearly' ? 'TaxReturnMonthly' : 'TaxReturnYearly';
        expect(branchValid(own, typed)).toBe(true);
        expect(branchValid(other, typed)).toBe(false);
      });
    }
  }

  it('a yearly return typed YEARLY (this document before) still validates', () => {
    expect(branchValid('TaxReturn', { ...example('yearly'), type: 'YEARLY' })).toBe(true);
  });
});
