/** Test support: valid CPFs, CNPJs and account numbers for payment traffic (mod-11 check digits). */
import { withCheckDigits } from '../../simulator/test-support/check-digits.js';

/** Numbers drawn in order from `start`: the same traffic gets the same numbers. */
export function brazilianNumbers(start = 100) {
  let serial = start;
  return {
    cpf: () => withCheckDigits(String(310_000_000 + serial++), 10, false),
    cnpj: () => withCheckDigits(`${String(40_000_000 + serial++)}0001`, 5, true),
    accountNumber: () => `${String(200_000 + serial++)}-${serial % 10}`,
  };
}
