/** German check-digit rules (reference §5 "Germany"). */
import { iso7064Mod11_10 } from '../../checksums.ts';

/** Steuer-IdNr: 11 digits, no digit more than 3× in the first 10, ISO 7064 MOD 11,10 check digit. */
export const deTaxIdValid = (text: string): boolean => {
  if (!/^[1-9]\d{10}$/.test(text)) return false;
  const counts = new Map<string, number>();
  for (const c of text.slice(0, 10)) counts.set(c, (counts.get(c) ?? 0) + 1);
  if ([...counts.values()].some((n) => n > 3)) return false;
  return iso7064Mod11_10(text.slice(0, 10)) === Number(text[10]);
};

/** USt-IdNr: pass → true, checksum miss → null (kept), bad structure → false. */
export const deVatValidate = (text: string): boolean | null => {
  const digits = text.slice(2).replace(/[ .-]/g, '');
  if (!/^\d{9}$/.test(digits)) return false;
  return iso7064Mod11_10(digits.slice(0, 8)) === Number(digits[8]) ? true : null;
};

const icaoValue = (ch: string): number => (/\d/.test(ch) ? Number(ch) : ch.toUpperCase().charCodeAt(0) - 55);

/** ICAO 9303 7-3-1 check: the last character is the check digit of the others. */
export const icao731Valid = (text: string): boolean => {
  const body = text.slice(0, -1);
  if (/[abdeioqsu]/i.test(body)) return false;
  let sum = 0;
  [...body].forEach((ch, i) => {
    sum += icaoValue(ch) * ([7, 3, 1][i % 3] ?? 1);
  });
  return sum % 10 === Number(text.slice(-1));
};

const digitSum = (n: number): number => (n >= 10 ? Math.floor(n / 10) + (n % 10) : n);
const letterDigits = (ch: string): string => String(ch.toUpperCase().charCodeAt(0) - 64).padStart(2, '0');

/** Rentenversicherungsnummer: letter → 2 digits, weights 2,1,2,5,7,1,2,1,2,1,2,1 with digit sums, mod 10. */
export const deSocialSecurityValid = (text: string): boolean => {
  const m = /^(\d{8})([a-z])(\d{2})(\d)$/i.exec(text);
  if (!m) return false;
  const digits = `${m[1]}${letterDigits(m[2] as string)}${m[3]}`;
  const weights = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1];
  let sum = 0;
  weights.forEach((w, i) => {
    sum += digitSum((digits.charCodeAt(i) - 48) * w);
  });
  return sum % 10 === Number(m[4]);
};

/** Krankenversichertennummer: letter → 2 digits, alternating weights 1,2 with digit sums over 10 digits. */
export const deHealthInsuranceValid = (text: string): boolean => {
  const m = /^([a-z])(\d{8})(\d)$/i.exec(text);
  if (!m) return false;
  const digits = `${letterDigits(m[1] as string)}${m[2]}`;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += digitSum((digits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 2));
  return sum % 10 === Number(m[3]);
};

/** LANR: weights 4,9,4,9,4,9 on digits 1–6; digit 7 = (10 − sum mod 10) mod 10. */
export const deLanrValid = (text: string): boolean => {
  if (!/^\d{9}$/.test(text)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += (text.charCodeAt(i) - 48) * (i % 2 === 0 ? 4 : 9);
  return (10 - (sum % 10)) % 10 === Number(text[6]);
};
