/**
 * Valid request bodies of the payment operations, as the document's schemas describe them (V1 flat
 * documents, V2 nested `{type, number}`; PAY-VERSION-HEADER), built from generated values.
 */
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../../../openapi/document/json.js';
import type { PaymentsConfig } from '../../target/target-config.js';
import type { SuiteContext } from '../rule.js';
import {
  accountNumberArbitrary,
  agencyArbitrary,
  cnpjArbitrary,
  cpfArbitrary,
  generatedCnpj,
  generatedCpf,
} from './brazilian-documents.js';

export type Version = 'V1' | 'V2';

/** `DecimalAmount`: a positive amount with two decimals, up to 99,999.99. */
export const amountArbitrary = (): fc.Arbitrary<string> =>
  fc
    .integer({ min: 1, max: 9_999_999 })
    .map((cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);

/** Short printable texts (descriptions, names). */
export const textArbitrary = (): fc.Arbitrary<string> =>
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,30}[A-Za-z0-9]$/);

/** A document number in the version's shape: flat digits (V1) or `{type, number}` (V2). */
export function documentIn(version: Version, digits: string): JsonValue {
  if (version === 'V1') return digits;
  return { type: digits.length === 14 ? 'CNPJ' : 'CPF', number: digits };
}

/** The digits of a document in either shape. */
export function digitsOf(identifier: unknown): string | undefined {
  if (typeof identifier === 'string') return identifier;
  if (typeof identifier === 'object' && identifier !== null && 'number' in identifier) {
    return typeof identifier.number === 'string' ? identifier.number : undefined;
  }
  return undefined;
}

/** A V2 customer's `Address`, generated from the document's schema. */
export const addressArbitrary = (suite: SuiteContext): fc.Arbitrary<JsonValue> =>
  suite.schemas.of(suite.document.schema('Address'));

/** A customer create body of `version`: an INDIVIDUAL with a CPF or a BUSINESS with a CNPJ. */
export function customerBodyArbitrary(suite: SuiteContext, version: Version): fc.Arbitrary<JsonObject> {
  const payments = suite.config.payments;
  const individual = cpfArbitrary(payments).map((digits) => ({ digits, type: 'INDIVIDUAL' }));
  const business = cnpjArbitrary(payments).map((digits) => ({ digits, type: 'BUSINESS' }));
  return fc
    .record({
      who: fc.oneof(individual, business),
      name: textArbitrary(),
      address: addressArbitrary(suite),
    })
    .map(({ who, name, address }) => ({
      identifier: documentIn(version, who.digits),
      name,
      customer_type: who.type,
      ...(version === 'V2' ? { address } : {}),
    }));
}

/** A V1 INDIVIDUAL customer body (customers created inside an intent, PAY-INTENT-CONFIGS). */
export const individualCustomerV1 = (payments: PaymentsConfig): fc.Arbitrary<JsonObject> =>
  fc
    .record({ cpf: cpfArbitrary(payments), name: textArbitrary() })
    .map(({ cpf, name }) => ({ identifier: cpf, name, customer_type: 'INDIVIDUAL' }));

/** Where an account is: institution, agency and number (PAY-BANK-ACCOUNT-DUP compares these). */
export interface AccountDetails {
  institution: string;
  agency: string;
  number: string;
}

export const accountDetailsArbitrary = (institution: string): fc.Arbitrary<AccountDetails> =>
  fc.record({
    institution: fc.constant(institution),
    agency: agencyArbitrary(),
    number: accountNumberArbitrary(),
  });

/** A BUSINESS (beneficiary) account body: the organization, holder with a CNPJ, no customer. */
export function businessAccountBody(details: AccountDetails, cnpj: string, version: Version): JsonObject {
  const holder = { name: 'Padaria Pao Dourado Ltda', identifier: documentIn(version, cnpj) };
  return { type: 'BUSINESS', ...details, account_type: 'CHECKING', holder };
}

/** An INDIVIDUAL (payer) account body: the customer's, holder with a CPF. */
export function individualAccountBody(
  details: AccountDetails,
  customer: { id: string; cpf: string },
  version: Version,
): JsonObject {
  const holder = { name: 'Maria Aparecida Souza', identifier: documentIn(version, customer.cpf) };
  return { type: 'INDIVIDUAL', customer: customer.id, ...details, account_type: 'SAVINGS', holder };
}

/** A Pix key of any of the five types (`PixKey`). */
export function pixKeyArbitrary(): fc.Arbitrary<JsonObject> {
  return fc.oneof(
    generatedCpf().map((value) => ({ type: 'CPF', value })),
    generatedCnpj().map((value) => ({ type: 'CNPJ', value })),
    fc.stringMatching(/^[a-z]{1,12}@[a-z]{2,10}\.com\.br$/).map((value) => ({ type: 'EMAIL', value })),
    fc.stringMatching(/^\+55\d{11}$/).map((value) => ({ type: 'PHONE', value })),
    fc.uuid({ version: 4 }).map((value) => ({ type: 'EVP', value })),
  );
}

/** A payment authorization's schedule of one charge on `date` (`occurrences: 1` or `end_date`). */
export function oneChargeSchedule(date: string, amount: string, byEndDate: boolean): JsonObject {
  return {
    frequency: 'MONTHLY',
    start_date: date,
    amount,
    ...(byEndDate ? { end_date: date } : { occurrences: 1 }),
  };
}
