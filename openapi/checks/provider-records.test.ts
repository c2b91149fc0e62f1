import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDocumentAjv } from '../document/document-ajv.js';
import { jsonMediaOf, listOperations } from '../document/document-walk.js';
import type { JsonObject } from '../document/json.js';
import { compareWithProvider } from './provider-comparison.js';
import { loadProviderFacts } from './provider-facts.js';
import { memberPathOf, providerRecord, type RecordMode } from './provider-records.js';

const root = resolve(import.meta.dirname, '../..');
const bundled = JSON.parse(readFileSync(join(root, 'openapi/generated/openapi.json'), 'utf8')) as JsonObject;
const facts = loadProviderFacts();

/** Members the strictness comparison lists as stricter, by `METHOD /path/ status`. */
function stricterMembers(document: JsonObject): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { kind, line } of compareWithProvider(document, facts)) {
    const match = /^(\S+ \S+ \d{3}) (.+?): /.exec(line);
    if (kind !== 'stricter' || match === null) continue;
    const member = match[2] === '(body)' ? '' : match[2]!;
    out.set(match[1]!, [...(out.get(match[1]!) ?? []), member]);
  }
  return out;
}

/** Refusals of provider-shaped records at members the comparison does not list as stricter. */
function unlistedRefusals(document: JsonObject) {
  const ajv = createDocumentAjv(document);
  const stricter = stricterMembers(document);
  const operations = new Map(listOperations(document).map((e) => [`${e.method} ${e.path}`, e]));
  const refusals = new Set<string>();
  let checked = 0;
  let passed = 0;
  for (const [key, operation] of Object.entries(facts.operations)) {
    const responses = (operations.get(key)?.operation.responses ?? {}) as JsonObject;
    for (const [status, record] of Object.entries(operation.responses)) {
      const schema = jsonMediaOf(document, responses[status])?.schema;
      if (Number(status) >= 300 || schema === undefined) continue;
      const validate = ajv.compile(schema);
      const listed = stricter.get(`${key} ${status}`) ?? [];
      for (const mode of ['full', 'nulls'] as RecordMode[]) {
        checked++;
        if (validate(providerRecord(record, mode))) {
          passed++;
          continue;
        }
        for (const error of validate.errors ?? []) {
          const member = memberPathOf(error.instancePath, error.params.missingProperty as string | undefined);
          const near = (m: string) =>
            m === member || m.startsWith(member === '' ? '' : `${member}.`) || m.startsWith(`${member}[]`);
          if (!listed.some(near))
            refusals.add(`${key} ${status} ${mode} ${member || '(body)'}: ${error.message}`);
        }
      }
    }
  }
  return { checked, passed, refusals: [...refusals] };
}

describe('records shaped like the provider’s validate against the document', () => {
  it('every record its facts describe passes, except at a member listed (and cited) as stricter', () => {
    const { checked, passed, refusals } = unlistedRefusals(bundled);
    expect(checked).toBeGreaterThan(80);
    // Most pass outright; the others fail only where a pending difference (or a cited one) is listed.
    expect(passed / checked).toBeGreaterThan(0.6);
    expect(refusals).toEqual([]);
  });

  it('catches a refusal the member-by-member comparison cannot see (a constraint across oneOf branches)', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the fixture reaches into the document to break it
    const broken: any = structuredClone(bundled);
    broken.components.schemas.TaxReturnMonthly.not = {
      properties: { isr: { type: 'object' } },
      required: ['isr'],
    };
    const { refusals } = unlistedRefusals(broken);
    expect(refusals.some((r) => r.startsWith('GET /api/tax-returns/{id}/ 200 full'))).toBe(true);
  });

  it('names the member an error is about', () => {
    expect(memberPathOf('/results/0/account/credit_data')).toBe('results[].account.credit_data');
    expect(memberPathOf('/0', 'id')).toBe('[].id');
    expect(memberPathOf('')).toBe('');
  });
});
