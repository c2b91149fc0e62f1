/**
 * CPF and CNPJ check digits (payments-common.yaml `Cpf`, `Cnpj`: validated on requests, 400 when wrong).
 */
import { type ApiErrors, apiError } from '../core/api-error.js';

/** Modulo-11 check digit over `digits` with `weights` (the Receita Federal algorithm). */
function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  digits.forEach((digit, index) => {
    sum += digit * (weights[index] ?? 0);
  });
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

function hasCheckDigits(text: string, length: number, firstWeights: number[]): boolean {
  // Repeated digits (000.000.000-00, ...) pass the arithmetic but are not issued.
  if (text.length !== length || !/^\d+$/.test(text) || /^(\d)\1+$/.test(text)) return false;
  const digits = [...text].map(Number);
  const body = length - 2;
  const first = checkDigit(digits.slice(0, body), firstWeights);
  const second = checkDigit(digits.slice(0, body + 1), [firstWeights[0]! + 1, ...firstWeights]);
  return first === digits[body] && second === digits[body + 1];
}

export const isValidCpf = (cpf: string) => hasCheckDigits(cpf, 11, [10, 9, 8, 7, 6, 5, 4, 3, 2]);

export const isValidCnpj = (cnpj: string) => hasCheckDigits(cnpj, 14, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);

export type DocumentType = 'CPF' | 'CNPJ';

export const documentTypeOf = (digits: string): DocumentType => (digits.length === 14 ? 'CNPJ' : 'CPF');

/** 400 `invalid_identifier` naming `field` when the CPF (11 digits) or CNPJ (14) check digits are wrong. */
export function checkDocument(digits: string, field: string): ApiErrors | undefined {
  const type = documentTypeOf(digits);
  const valid = type === 'CNPJ' ? isValidCnpj(digits) : isValidCpf(digits);
  if (valid) return undefined;
  return apiError('invalid_identifier', { field, message: `The ${type} check digits are not valid.` });
}
