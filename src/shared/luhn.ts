/**
 * The Luhn check digit (ISO/IEC 7812), which card numbers and IMEIs both end in: the one rule
 * that tells a mistyped digit from a real number before anything is asked of anyone.
 */

/** Whether `digits` (digits only) end in the Luhn check digit of the ones before. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
