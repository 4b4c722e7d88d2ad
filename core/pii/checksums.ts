/** Checksum algorithms used by the validators (pure functions over digit strings). */

/** Keeps only ASCII digits. */
export const digitsOf = (value: string): string => value.replace(/\D/g, '');

/** Luhn (mod 10) over a digit string, rightmost digit being the check digit. */
export const luhnValid = (digits: string): boolean => {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
};

/** Luhn check digit that completes `payload`. */
export const luhnCheckDigit = (payload: string): number => {
  for (let d = 0; d < 10; d++) if (luhnValid(payload + d)) return d;
  return 0;
};

/** Sum of digit[i] * weights[i] (digits as a string). */
export const weightedSum = (digits: string, weights: readonly number[]): number => {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits.charCodeAt(i) - 48) * (weights[i] ?? 0);
  return sum;
};

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const verhoeffState = (digits: string, offset: number): number => {
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = VERHOEFF_D[c]?.[VERHOEFF_P[(i + offset) % 8]?.[d] ?? 0] ?? 0;
  }
  return c;
};

/** Verhoeff (dihedral group D5) validity of a digit string including its check digit. */
export const verhoeffValid = (digits: string): boolean => /^\d+$/.test(digits) && verhoeffState(digits, 0) === 0;

/** Verhoeff check digit that completes `payload`. */
export const verhoeffCheckDigit = (payload: string): number => {
  for (let d = 0; d < 10; d++) if (verhoeffValid(payload + d)) return d;
  return 0;
};

/** ISO 7064 MOD 11-2 check character ('0'-'9' or 'X') for a digit payload (PRC resident id). */
export const iso7064Mod11_2 = (payload: string): string => {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) sum = ((sum + payload.charCodeAt(i) - 48) * 2) % 11;
  const check = (12 - sum) % 11;
  return check === 10 ? 'X' : String(check);
};

/** ISO 7064 MOD 11,10 (hybrid) check digit for a digit payload (German tax id, VAT id). */
export const iso7064Mod11_10 = (payload: string): number => {
  let product = 10;
  for (let i = 0; i < payload.length; i++) {
    let sum = (payload.charCodeAt(i) - 48 + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = 11 - product;
  return check === 10 ? 0 : check;
};

/** ISO 7064 MOD 97-10 remainder of an alphanumeric string (letters A=10 … Z=35). */
export const mod97 = (value: string): number => {
  let rest = 0;
  for (const ch of value.toUpperCase()) {
    const code = ch.charCodeAt(0);
    const n = code >= 65 && code <= 90 ? code - 55 : code - 48;
    rest = n >= 10 ? (rest * 100 + n) % 97 : (rest * 10 + n) % 97;
  }
  return rest;
};

/** True when all characters of `value` are the same. */
export const allSame = (value: string): boolean => value.length > 0 && value.split('').every((c) => c === value[0]);

/** Real calendar date check (month 1-12, day within the month, leap years). */
export const isRealDate = (year: number, month: number, day: number): boolean => {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
};
