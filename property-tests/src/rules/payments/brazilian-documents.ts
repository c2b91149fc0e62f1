/**
 * Valid Brazilian identities for the PAY-* rules: CPFs and CNPJs with their modulo-11 check digits
 * (the document's `Cpf`, `Cnpj`: check digits validated, 400 when wrong), agencies and account numbers.
 * Where the config names test identities (`payments.cpfs`, `payments.cnpjs`) those are used instead.
 */
import fc from 'fast-check';
import type { PaymentsConfig } from '../../target/target-config.js';

/** The Receita Federal check digit of `digits` with the weights counting down from `first` (cycling at 2). */
function checkDigit(digits: string, first: number, cycle: boolean): string {
  let sum = 0;
  let weight = first;
  for (const digit of digits) {
    sum += Number(digit) * weight;
    weight = cycle && weight === 2 ? 9 : weight - 1;
  }
  const rest = sum % 11;
  return String(rest < 2 ? 0 : 11 - rest);
}

/** `body` with its two check digits appended. */
function withCheckDigits(body: string, first: number, cycle: boolean): string {
  const once = body + checkDigit(body, first, cycle);
  return once + checkDigit(once, first + 1, cycle);
}

/** A CPF: 9 digits and two check digits (weights 10..2, then 11..2). */
export const cpfOf = (nineDigits: string) => withCheckDigits(nineDigits, 10, false);

/** A CNPJ: 12 digits and two check digits (weights 5..2,9..2, then 6..2,9..2). */
export const cnpjOf = (twelveDigits: string) => withCheckDigits(twelveDigits, 5, true);

const digits = (length: number) =>
  fc.stringMatching(new RegExp(`^\\d{${length}}$`)).filter((text) => !/^(\d)\1+$/.test(text));

/** Generated CPFs (never all one digit: 111.111.111-11 passes the arithmetic but is not issued). */
export const generatedCpf = (): fc.Arbitrary<string> => digits(9).map(cpfOf);

/** Generated CNPJs of a head office (`0001`), as businesses are registered. */
export const generatedCnpj = (): fc.Arbitrary<string> => digits(8).map((root) => cnpjOf(`${root}0001`));

/** The config's test CPFs, else generated ones. */
export const cpfArbitrary = (payments: PaymentsConfig): fc.Arbitrary<string> =>
  payments.cpfs.length > 0 ? fc.constantFrom(...payments.cpfs) : generatedCpf();

/** The config's test CNPJs, else generated ones. */
export const cnpjArbitrary = (payments: PaymentsConfig): fc.Arbitrary<string> =>
  payments.cnpjs.length > 0 ? fc.constantFrom(...payments.cnpjs) : generatedCnpj();

/** A branch number (`AgencyNumber`: 4 digits). */
export const agencyArbitrary = (): fc.Arbitrary<string> => fc.stringMatching(/^\d{4}$/);

/** An account number with its check digit after a hyphen (`AccountNumber`). */
export const accountNumberArbitrary = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.stringMatching(/^\d{4,8}$/), fc.constantFrom(...'0123456789X'))
    .map(([body, check]) => `${body}-${check}`);

/** An account number made unique with `serial` (so runs never collide with accounts of earlier runs). */
export const uniqueAccountNumber = (serial: number, generated: string) =>
  `${String(serial % 10_000).padStart(4, '0')}${generated}`;
