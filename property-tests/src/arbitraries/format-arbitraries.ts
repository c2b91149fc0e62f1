/** Arbitraries for the string formats of the document (dates, instants, uuids, e-mails, URIs). */
import fc from 'fast-check';

const MIN_DATE = new Date('2000-01-01T00:00:00.000Z');
const MAX_DATE = new Date('2035-12-31T23:59:59.999Z');

/** Instants between 2000 and 2035, valid `Date`s only. */
export const instantArbitrary = (): fc.Arbitrary<Date> =>
  fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true });

/** `YYYY-MM-DD` (FILTER-RANGE dates, `format: date`). */
export const dateArbitrary = (): fc.Arbitrary<string> =>
  instantArbitrary().map((date) => date.toISOString().slice(0, 10));

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  date: dateArbitrary,
  'date-time': () => instantArbitrary().map((date) => date.toISOString()),
  uuid: () => fc.uuid({ version: 4 }),
  // Plain dot-atom addresses: what Ajv's `email` format and every mail system accept.
  email: () =>
    fc
      .tuple(
        fc.stringMatching(/^[a-z][a-z0-9._-]{0,14}[a-z0-9]$/),
        fc.constantFrom('example.com', 'mail.example.br'),
      )
      .filter(([local]) => !local.includes('..'))
      .map(([local, domain]) => `${local}@${domain}`),
  // fc.webUrl is slow to build and generate; these are the URIs a request of this API carries.
  uri: () => fc.stringMatching(/^https:\/\/[a-z]{1,10}\.example(\/[a-z0-9-]{1,10}){0,2}$/),
};

/** The arbitrary of a `format`, or undefined when the suite does not know it (the caller falls back). */
export function formatArbitrary(format: string): fc.Arbitrary<string> | undefined {
  return FORMATS[format]?.();
}
