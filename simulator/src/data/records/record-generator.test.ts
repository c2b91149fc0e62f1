import { describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../../../openapi/document/bundled-documents.js';
import { createDocumentAjv, describeErrors } from '../../../../openapi/document/document-ajv.js';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { withSentValues } from '../../core/sent-values.js';
import { createIds, createRandom } from '../../ids/seeded-ids.js';
import { type GenerationContext, generateRecords } from './record-generator.js';
import { buildRecordTemplates } from './record-templates.js';

// What the simulator sends: the document with its stricter overlay, as createLinkData reads it.
const document = withSentValues(readBundledDocument('api'));
const templates = buildRecordTemplates(document);
const ajv = createDocumentAjv(document);

const LINK = { id: '6f1d2c3b-4a59-4e8d-9c7b-1a2b3c4d5e6f', institution: 'ofbank_br_retail', country: 'BR' };
const NOW = '2027-03-10T09:30:00.000Z';
const ACCOUNTS = ['0d3ffb69-f83b-456e-ad8e-208d0998d71d', '4f6e8d2a-1c3b-4e5f-a7d9-0b2c4e6f8a1d'];
const RANGE = { from: '2027-01-15', to: '2027-02-28' };

function generate(
  path: string,
  context: Partial<GenerationContext>,
  count: number,
  seed = 'fixtures',
): JsonObject[] {
  const template = templates.get(path);
  if (template === undefined) throw new Error(`no template for ${path}`);
  const random = createRandom(seed);
  return generateRecords(template, { link: LINK, collectedAt: NOW, ...context }, count, {
    random,
    ids: createIds(random),
  });
}

function invalidRecords(path: string, records: JsonObject[]): string[] {
  const validate = ajv.compile(templates.get(path)?.schema ?? {});
  return records.flatMap((record, i) =>
    validate(record) ? [] : [`#${i}: ${describeErrors(validate).join('; ')}`],
  );
}

describe('record templates', () => {
  it('cover the data resources of the document, not links, institutions, consents or sub-collections', () => {
    expect(templates.size).toBeGreaterThanOrEqual(20);
    for (const path of ['/api/accounts/', '/api/transactions/', '/api/invoices/', '/api/tax-returns/']) {
      expect(templates.has(path)).toBe(true);
    }
    for (const path of templates.keys()) {
      expect(['/api/links/', '/api/institutions/', '/api/consents/']).not.toContain(path);
      expect(path).not.toContain('{');
    }
  });

  it('take the main date from the list range filters and the references from the list filters', () => {
    expect(templates.get('/api/transactions/')).toMatchObject({
      mainDate: 'value_date',
      references: ['account'],
    });
    expect(templates.get('/api/tax-returns/')?.mainDate).toBe('year');
    expect(templates.get('/api/tax-returns/')?.examples.map((e) => e.type)).toEqual(['yearly', 'monthly']);
  });
});

describe('RESP-REQUIRED-NULLABLE: generated records validate against the record schema', () => {
  for (const path of templates.keys()) {
    it(path, () => {
      const ranged = generate(path, { accountIds: ACCOUNTS, dateRange: RANGE }, 50);
      const plain = generate(path, {}, 50, 'no range');
      expect(invalidRecords(path, ranged)).toEqual([]);
      expect(invalidRecords(path, plain)).toEqual([]);
      const records = [...ranged, ...plain];
      expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
      for (const record of records)
        expect(record).toMatchObject({ link: LINK.id, collected_at: NOW, created_at: NOW });
    });
  }
});

describe('determinism', () => {
  for (const path of templates.keys()) {
    it(`${path}: the same seed gives the same records, another seed others`, () => {
      const context = { accountIds: ACCOUNTS, dateRange: RANGE };
      expect(generate(path, context, 20, 'a')).toEqual(generate(path, context, 20, 'a'));
      expect(generate(path, context, 20, 'a')).not.toEqual(generate(path, context, 20, 'b'));
    });
  }
});

describe('DATA-RETRIEVE: transactions respect the request', () => {
  const records = generate('/api/transactions/', { accountIds: ACCOUNTS, dateRange: RANGE }, 400);

  it('carry the link, one of the requested accounts and a value date inside the range', () => {
    for (const record of records) {
      expect(record.link).toBe(LINK.id);
      expect(ACCOUNTS).toContain((record.account as { id: string }).id);
      expect(String(record.value_date) >= RANGE.from && String(record.value_date) <= RANGE.to).toBe(true);
      if (record.accounting_date !== null)
        expect(String(record.accounting_date).slice(0, 10)).toBe(record.value_date);
    }
    expect(new Set(records.map((r) => (r.account as { id: string }).id))).toEqual(new Set(ACCOUNTS));
  });

  it('mix outflows and inflows with positive amounts, in the currency of the link country', () => {
    const outflows = records.filter((r) => r.type === 'OUTFLOW').length;
    expect(outflows).toBeGreaterThan(records.length / 2);
    expect(outflows).toBeLessThan(records.length);
    for (const record of records) expect(record.amount).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.amount)).size).toBeGreaterThan(records.length / 2);
    const mexican = generate('/api/transactions/', { link: { ...LINK, country: 'MX' } }, 5);
    expect(mexican.map((r) => r.currency)).toEqual(['MXN', 'MXN', 'MXN', 'MXN', 'MXN']);
  });

  it('without accounts, belong to one fresh account for the whole call', () => {
    const records = generate('/api/transactions/', { dateRange: RANGE }, 30);
    const accounts = new Set(records.map((r) => (r.account as { id: string }).id));
    expect(accounts.size).toBe(1);
  });
});

describe('TAX-RETURNS-MIXED: tax returns alternate yearly and monthly inside the year range', () => {
  it('keeps the years asked for', () => {
    const records = generate(
      '/api/tax-returns/',
      { dateRange: { from: '2024-01-01', to: '2025-12-31' } },
      40,
    );
    expect(records.map((r) => r.type).slice(0, 4)).toEqual(['yearly', 'monthly', 'yearly', 'monthly']);
    for (const record of records) expect([2024, 2025]).toContain(record.year);
    expect(invalidRecords('/api/tax-returns/', records)).toEqual([]);
  });

  it('gives only the type a request filters on', () => {
    const records = generate('/api/tax-returns/', { match: { type: 'monthly' } }, 10);
    expect(new Set(records.map((r) => r.type))).toEqual(new Set(['monthly']));
    expect(invalidRecords('/api/tax-returns/', records)).toEqual([]);
  });
});

describe('request filters (match)', () => {
  it('set a value no example has where the schema allows it, and leave out values it does not', () => {
    const inflows = generate('/api/cl/invoices/', { match: { type: 'INFLOW' } }, 10);
    expect(new Set(inflows.map((r) => r.type))).toEqual(new Set(['INFLOW']));
    expect(invalidRecords('/api/cl/invoices/', inflows)).toEqual([]);
    const investments = generate('/api/br/investments/', { match: { type: 'OUTFLOW', unknown: 1 } }, 10);
    expect(investments.map((r) => r.type)).not.toContain('OUTFLOW');
    expect(invalidRecords('/api/br/investments/', investments)).toEqual([]);
  });
});

describe('references and times', () => {
  it('gives investment transactions the requested investment', () => {
    const investment = '5b1e7c3a-2f4d-4e8a-9c61-7d2a0b9e4f13';
    const records = generate(
      '/api/br/investment-transactions/',
      { references: { investment: [investment] } },
      10,
    );
    for (const record of records) expect(record.investment).toBe(investment);
  });

  it('never dates a past event after the time of collection', () => {
    for (const record of generate('/api/br/balances/', { accountIds: ACCOUNTS }, 20)) {
      expect(String(record.balance_at) <= NOW).toBe(true);
    }
    for (const record of generate(
      '/api/invoices/',
      { dateRange: { from: '2027-03-01', to: '2027-03-10' } },
      50,
    )) {
      if (record.cancelled_at !== null) expect(String(record.cancelled_at) <= NOW).toBe(true);
    }
  });
});

describe('what the simulator sends, stricter than the document (core/sent-values.ts)', () => {
  const mexican = { ...LINK, institution: 'ofsat_mx_fiscal', country: 'MX' };

  it('invoices: a fresh folio fiscal (uuid) each, the link country currency, the SAT status words', () => {
    const invoices = generate('/api/invoices/', { link: mexican, dateRange: RANGE }, 60);
    const folios = invoices.map((r) => String(r.invoice_identification));
    expect(new Set(folios).size).toBe(folios.length);
    for (const folio of folios)
      expect(folio).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(invoices.map((r) => r.status))).toEqual(new Set(['Vigente', 'Cancelado']));
    const currencies = new Set(invoices.map((r) => r.currency));
    expect(currencies.has('MXN')).toBe(true);
    for (const currency of currencies) expect(currency).toMatch(/^[A-Z]{3}$/);
  });

  it("accounts: the link country's currency; a card's statement dates are dates that move with the time of collection", () => {
    const accounts = generate('/api/accounts/', {}, 3);
    for (const account of accounts) expect(account.currency).toBe('BRL');
    const cuttingAt = (collectedAt: string) => {
      const [card] = generate('/api/accounts/', { collectedAt }, 3).filter(
        (r) => r.category === 'CREDIT_CARD',
      );
      return String((card!.credit_data as JsonObject).cutting_date);
    };
    const [now, later] = [cuttingAt(NOW), cuttingAt('2027-05-20T09:30:00.000Z')];
    for (const date of [now, later]) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(later > now).toBe(true);
  });

  it("recurring expenses: only the provider's frequency, MONTHLY", () => {
    const expenses = generate('/api/recurring-expenses/', { accountIds: ACCOUNTS }, 40);
    expect(new Set(expenses.map((r) => r.frequency))).toEqual(new Set(['MONTHLY']));
  });
});
