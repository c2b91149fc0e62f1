/**
 * Test support: mod-11 check digits of CPFs and CNPJs, written independently of the simulator's
 * brazilian-documents.ts so that the tests do not check the simulator with its own code.
 */
export function withCheckDigits(body: string, firstWeight: number, cycle: boolean): string {
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
