/**
 * The document's Ajv keeps each answer of the date and time formats; its verdicts stay those of
 * ajv-formats' full checks (real calendar dates, leap years, offsets, a leap second), asked again or not.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createDocumentAjv } from './document-ajv.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const SAMPLES: Record<string, string[]> = {
  'date-time': [
    '2026-11-26T10:00:00Z',
    '2026-11-26T10:00:00.123-03:00',
    '2024-02-29T00:00:00+00:00',
    '2023-02-29T00:00:00Z',
    '2026-11-26 10:00:00Z',
    '2026-11-26T24:00:00Z',
    '2016-12-31T23:59:60Z',
    '2026-11-26T10:00:00',
    'not a date',
    '',
  ],
  date: ['2026-11-26', '2024-02-29', '2023-02-29', '2026-13-01', '2026-11-31', '26-11-2026'],
  time: ['10:00:00Z', '10:00:00.5+03:00', '23:59:60Z', '25:00:00Z', '10:00', '10:00:00'],
};

describe('the document Ajv remembers date and time format answers', () => {
  const plain = new Ajv2020({ strict: true, allErrors: true });
  addFormats(plain);
  const document = createDocumentAjv({ components: { schemas: {} } }, { checkSchemas: false });

  it('answers as the full checks do, the first time and every time after', () => {
    for (const [format, values] of Object.entries(SAMPLES)) {
      const schema = { type: 'string', format };
      const expected = plain.compile(schema);
      const remembered = document.compile({ type: 'string', format });
      for (let round = 0; round < 3; round++)
        for (const value of values)
          expect([format, value, remembered(value)]).toEqual([format, value, expected(value)]);
    }
  });

  it('stays right past the bound of what it keeps (the table empties, answers do not change)', () => {
    const validate = document.compile({ type: 'string', format: 'date' });
    for (let day = 0; day < 5_000; day++) {
      const date = new Date(Date.UTC(2000, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
      expect(validate(date)).toBe(true);
    }
    expect(validate('2023-02-29')).toBe(false);
    expect(validate('2024-02-29')).toBe(true);
  });
});
