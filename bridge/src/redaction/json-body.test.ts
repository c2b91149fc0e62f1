/**
 * The text a redacted JSON body is kept as: the text that came, searched, wherever the walk's
 * pseudonyms land where the walk put them (its formatting kept); written again from the redacted value
 * where they might not (an escape in the text, a number replaced). Either way no personal value is
 * left, and the parsed value handed to the checks is the one the kept text holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadBridgeDocument } from '../document/bridge-document.js';
import { decodedExchange, type Exchange, jsonBodyOf } from '../exchange/exchange.js';
import { createRedactor } from './redact-exchange.js';

const document = loadBridgeDocument();
const LINK = '3f2a9c1e-2222-4222-8222-222222222222';
const owner = (index: number, name: string) => ({
  id: `3f2a9c1e-1111-4111-8111-${String(index).padStart(12, '0')}`,
  link: LINK,
  internal_identification: null,
  collected_at: null,
  display_name: name,
  email: 'maria.souza@example.com',
  phone_number: '+55 11 98765-4321',
  address: null,
  document_id: { document_type: 'CPF', document_number: '123.456.789-09' },
});
const PERSONAL = ['Maria Fernanda Souza', 'maria.souza@example.com', '+55 11 98765-4321', '123.456.789-09'];

/** The page as the recording's worker meets it: read from its bytes (a long one in pieces). */
function ownersPage(text: string): Exchange {
  return decodedExchange({
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 3,
    request: { method: 'GET', url: `http://api.test/api/owners/?link=${LINK}`, headers: [] },
    response: {
      status: 200,
      statusText: '',
      headers: [['content-type', 'application/json']],
      bodyChunks: [Buffer.from(text)],
    },
  });
}

/** Records enough for a page read in pieces (from 64 KiB). */
const LONG = 250;

const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });
const redactor = () =>
  createRedactor({ document, key: Buffer.alloc(32, 7), keepPersonal: false, basePath: '' });

/** The redacted page's text, after checking what every redacted body must hold. */
function redactedText(redact: ReturnType<typeof redactor>, text: string): string {
  const { response } = redact.redact(ownersPage(text));
  const kept = response.body!;
  for (const value of PERSONAL) expect(kept).not.toContain(value);
  // What the checks read is what the recording holds.
  expect(jsonBodyOf(response)).toEqual(JSON.parse(kept));
  return kept;
}

/** A redactor that already redacted a page holding the name: it remembers the name for later texts. */
function nameLearnt(): ReturnType<typeof redactor> {
  const redact = redactor();
  redactedText(redact, JSON.stringify(page([owner(1, 'Maria Fernanda Souza')])));
  return redact;
}

/** A page of `length` owners named as nameLearnt learnt, each with a member the document does not mark. */
const notedPage = (length: number, note: string) =>
  JSON.stringify(
    page(Array.from({ length }, (_, index) => ({ ...owner(index, 'Maria Fernanda Souza'), note }))),
  );

describe('the text a redacted JSON body is kept as', () => {
  it('is the text that came, its formatting kept, with the pseudonyms a compact text gets', () => {
    const records = [owner(1, 'Maria Fernanda Souza'), owner(2, 'Maria Fernanda Souza')];
    const compact = JSON.parse(redactedText(redactor(), JSON.stringify(page(records))));
    const pretty = redactedText(redactor(), JSON.stringify(page(records), null, 2));
    expect(pretty).toContain('\n  "results": [\n    {\n');
    expect(JSON.parse(pretty)).toEqual(compact);
  });

  it('is written again when a personal value hides behind an escape the search would not see', () => {
    const plain = JSON.stringify(page([owner(1, 'Maria Fernanda Souza')]));
    const escaped = plain.replace('"Maria Fernanda Souza"', '"Maria Fernanda Souz\\u0061"');
    expect(escaped).not.toBe(plain);
    const kept = redactedText(redactor(), escaped);
    expect(kept).not.toContain('Souz\\u0061');
    expect(JSON.parse(kept)).toEqual(JSON.parse(redactedText(redactor(), plain)));
  });

  it('is written again for a long page with an escaped quote in one record, every record redacted', () => {
    const records = Array.from({ length: LONG }, (_, index) => owner(index, 'Maria Fernanda Souza'));
    records[70]!.display_name = 'Maria "Mafê" Souza';
    const text = JSON.stringify(page(records));
    expect(text.length).toBeGreaterThan(65_536);
    const kept = JSON.parse(redactedText(redactor(), text));
    expect(kept.results[70].display_name).not.toContain('Mafê');
    expect(new Set(kept.results.map((record: { email: string }) => record.email)).size).toBe(1);
  });

  it.each([
    ['a short page', 1],
    ['a page read in pieces', LONG],
  ])(
    'replaces in %s every occurrence of a value redacted so far, beside the places the walk replaced',
    (_, length) => {
      // The name again, in a member the document does not mark: replaced, and what the checks read is that.
      const kept = JSON.parse(redactedText(nameLearnt(), notedPage(length, 'Maria Fernanda Souza')));
      expect(kept.results[length - 1].note).toBe(kept.results[length - 1].display_name);
    },
  );

  it('keeps a long page read in pieces as it came, the walk pseudonyms in place', () => {
    const records = Array.from({ length: LONG }, (_, index) => owner(index, 'Maria Fernanda Souza'));
    const text = JSON.stringify(page(records));
    const redact = redactor();
    const kept = redactedText(redact, text);
    const pseudonym = JSON.parse(kept).results[0].display_name;
    expect(kept).toBe(
      text
        .replaceAll('Maria Fernanda Souza', pseudonym)
        .replace(/maria\.souza@example\.com|\+55 11 98765-4321|123\.456\.789-09/g, (value) =>
          redact.text(value),
        ),
    );
  });

  it("finds a value with a quote only where JSON writes it, never across a member's edge", () => {
    const redact = redactor();
    // A name that reads, in a later text, from the end of a member's name into its value.
    redactedText(redact, JSON.stringify(page([owner(1, 'name":"Maria')])));
    const records = [
      owner(2, 'Maria Fernanda Souza'),
      { ...owner(3, 'Maria Fernanda Souza'), note: 'name":"Maria' },
    ];
    const text = JSON.stringify(page(records));
    const kept = JSON.parse(redactedText(redact, text));
    expect(Object.keys(kept.results[0])).toEqual(Object.keys(records[0]!));
    expect(kept.results[1].note).toBe(redact.text('name":"Maria'));
  });

  it.each([
    ['a short page', 1],
    ['a page read in pieces', LONG],
  ])('replaces in %s a value right after an escape, in a member the document does not mark', (_, length) => {
    const note = 'Pix de\nMaria Fernanda Souza\t(123.456.789-09)';
    const kept = JSON.parse(redactedText(nameLearnt(), notedPage(length, note)));
    const name = kept.results[0].display_name;
    expect(kept.results[length - 1].note).toBe(
      `Pix de\n${name}\t(${kept.results[0].document_id.document_number})`,
    );
  });

  it('keeps a text as it came when its escapes are the ones JSON writes, every value replaced', () => {
    const redact = nameLearnt();
    const note = 'Pix "de"\nMaria Fernanda Souza\t\u0001';
    // Pretty-printed: the kept text keeps its formatting only where it is the text as it came.
    const kept = redactedText(
      redact,
      JSON.stringify(page([{ ...owner(2, 'Maria Fernanda Souza'), note }]), null, 1),
    );
    expect(kept).toContain('\n "results": [\n  {\n');
    expect(kept).toContain('"Pix \\"de\\"\\n');
    const name = JSON.parse(kept).results[0].display_name;
    expect(JSON.parse(kept).results[0].note).toBe(`Pix "de"\n${name}\t\u0001`);
    // A page read in pieces, the same escapes in every record.
    const long = JSON.parse(redactedText(redact, notedPage(LONG, note)));
    expect(long.results[LONG - 1].note).toBe(`Pix "de"\n${name}\t\u0001`);
  });

  it('keeps a number valid JSON where a value redacted as a string stands as a number', () => {
    const redact = redactor();
    const records = Array.from({ length: 60 }, (_, index) => ({
      ...owner(index, String(10_000 + index)),
      note: 10_000 + index + 0.5,
    }));
    // redactedText parses the kept text: a pseudonym with a leading 0 in the number would not parse.
    const kept = JSON.parse(redactedText(redact, JSON.stringify(page(records))));
    for (const [index, record] of kept.results.entries()) {
      expect(record.note).toBe(Number(record.display_name) + 0.5);
      expect(record.display_name).not.toBe(String(10_000 + index));
    }
  });

  it('reads as the redacted value written again would, for any names (fast-check, fixed seed 4711: replays)', () => {
    const tricky = [
      'Maria "Mafê" Souza',
      'Ana\tMaria Souza',
      'Ana\\Maria Souza',
      'Ana\u0001Maria',
      'ação 😀',
      '---',
      'x',
      '0001/4321-5',
      '\u2028 line',
      '},{"id":1',
    ];
    const name = fc.oneof(fc.constantFrom(...tricky), fc.string({ unit: 'binary', maxLength: 24 }));
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), fc.boolean(), (names, long) => {
        const records = Array.from({ length: long ? LONG : 3 }, (_, index) => ({
          ...owner(index, names[index % names.length]!),
          note: names[(index + 1) % names.length],
        }));
        const text = JSON.stringify(page(records));
        // The same page with an escape JSON.stringify would not write, in a member of its own: written
        // again from the redacted value.
        const escaped = text.replace('{"count":', '{"zz":"\\u00e3","count":');
        const asItCame = redactor().redact(ownersPage(text)).response;
        const writtenAgain = redactor().redact(ownersPage(escaped)).response;
        const { zz: _zz, ...expected } = JSON.parse(writtenAgain.body!);
        expect(JSON.parse(asItCame.body!)).toEqual(expected);
        expect(jsonBodyOf(asItCame)).toEqual(JSON.parse(asItCame.body!));
      }),
      { numRuns: 25, seed: 4711 },
    );
  });

  it('redacts each record as it would alone, whatever the order and members of the records before it (fast-check, fixed seed 4713: replays)', () => {
    const names = Object.keys(owner(0, 'x'));
    // A record's members in another order, some left out (the walk reads the last record's names first).
    const shaped = (index: number, kept: string[]) => {
      const whole = owner(index, `Maria Souza ${index}`) as Record<string, unknown>;
      return Object.fromEntries(kept.map((name) => [name, whole[name]]));
    };
    const record = fc.shuffledSubarray(names, { minLength: 1 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 2, maxLength: 8 }), (shapes) => {
        const records = shapes.map((kept, index) => shaped(index, kept));
        const together = JSON.parse(
          redactor().redact(ownersPage(JSON.stringify(page(records)))).response.body!,
        );
        records.forEach((alone, index) => {
          const { results } = JSON.parse(
            redactor().redact(ownersPage(JSON.stringify(page([alone])))).response.body!,
          );
          expect(together.results[index]).toEqual(results[0]);
          if ('display_name' in alone) expect(results[0].display_name).not.toBe(alone.display_name);
        });
      }),
      { numRuns: 60, seed: 4713 },
    );
  });
});
