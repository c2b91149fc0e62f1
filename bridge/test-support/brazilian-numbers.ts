/** Test support: valid CPFs, CNPJs and account numbers for payment traffic (mod-11 check digits). */

function withCheckDigits(body: string, firstWeight: number, cycle: boolean): string {
  let digits = body;
  for (let round = 0; round < 2; round++) {
    let sum = 0;
    let weight = firstWeight + round;
    for (const digit of digits) {
      sum += Number(digit) * weight;
      weight = cycle && weight === 2 ? 9 : weight - 1;
    }
    const rest = sum % 11;
    digits += String(rest < 2 ? 0 : 11 - rest);
  }
  return digits;
}

/** Numbers drawn in order from `start`: the same traffic gets the same numbers. */
export function brazilianNumbers(start = 100) {
  let serial = start;
  return {
    cpf: () => withCheckDigits(String(310_000_000 + serial++), 10, false),
    cnpj: () => withCheckDigits(`${String(40_000_000 + serial++)}0001`, 5, true),
    accountNumber: () => `${String(200_000 + serial++)}-${serial % 10}`,
  };
}
