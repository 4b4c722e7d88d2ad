/** Generators for the remaining checksummed identifiers (see generators.ts). */
import { luhnCheckDigit, weightedSum } from '../checksums.ts';
import { digits, int, pick, type Rng } from './generators.ts';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const digitSum = (n: number): number => (n >= 10 ? Math.floor(n / 10) + (n % 10) : n);

export const acn = (rng: Rng): string => {
  const body = digits(rng, 8);
  const check = (10 - (weightedSum(body, [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10;
  const full = `${body}${check}`;
  return `${full.slice(0, 3)} ${full.slice(3, 6)} ${full.slice(6)}`;
};
export const auMedicare = (rng: Rng): string => {
  const body = `${int(rng, 2, 6)}${digits(rng, 7)}`;
  const check = weightedSum(body, [1, 3, 7, 9, 1, 3, 7, 9]) % 10;
  return `${body.slice(0, 4)} ${body.slice(4)}${check} ${int(rng, 1, 9)}`;
};
export const deLanr = (rng: Rng): string => {
  const body = digits(rng, 6);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(body[i]) * (i % 2 === 0 ? 4 : 9);
  return `${body}${(10 - (sum % 10)) % 10}${digits(rng, 2)}`;
};
export const deKvnr = (rng: Rng): string => {
  const letter = String.fromCharCode(65 + int(rng, 0, 25));
  const body = digits(rng, 8);
  const all = `${pad(letter.charCodeAt(0) - 64)}${body}`;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += digitSum(Number(all[i]) * (i % 2 === 0 ? 1 : 2));
  return `${letter}${body}${sum % 10}`;
};
export const deRvnr = (rng: Rng): string => {
  const area = pad(int(rng, 10, 89));
  const birth = `${pad(int(rng, 1, 28))}${pad(int(rng, 1, 12))}${pad(int(rng, 40, 99))}`;
  const letter = String.fromCharCode(65 + int(rng, 0, 25));
  const serial = pad(int(rng, 0, 99));
  const all = `${area}${birth}${pad(letter.charCodeAt(0) - 64)}${serial}`;
  const weights = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1];
  const sum = weights.reduce((acc, w, i) => acc + digitSum(Number(all[i]) * w), 0);
  return `${area}${birth}${letter}${serial}${sum % 10}`;
};
const ICAO = 'CFGHJKLMNPRTVWXYZ';
export const deDocument = (rng: Rng): string => {
  const body = `${pick(rng, [...ICAO])}${Array.from({ length: 7 }, () => pick(rng, [...`${ICAO}0123456789`])).join('')}`;
  const value = (c: string) => (/\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
  const sum = [...body].reduce((acc, c, i) => acc + value(c) * ([7, 3, 1][i % 3] ?? 1), 0);
  return `${body}${sum % 10}`;
};
export const krBrn = (rng: Rng): string => {
  const body = digits(rng, 9);
  const sum = weightedSum(body, [1, 3, 7, 1, 3, 7, 1, 3, 5]) + Math.floor((5 * Number(body[8])) / 10);
  const full = `${body}${(10 - (sum % 10)) % 10}`;
  return `${full.slice(0, 3)}-${full.slice(3, 5)}-${full.slice(5)}`;
};
export const sgUenA = (rng: Rng): string => {
  const body = digits(rng, 8);
  return `${body}${'XMKECAWLJDB'[weightedSum(body, [10, 4, 9, 3, 8, 2, 7, 1]) % 11]}`;
};
export const gstin = (rng: Rng): string => {
  const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + int(rng, 0, 25))).join('');
  return `${pad(int(rng, 1, 37))}${letters(3)}P${letters(1)}${digits(rng, 4)}${letters(1)}${int(rng, 1, 9)}Z${int(rng, 0, 9)}`;
};
export const phTin = (rng: Rng): string => {
  const body = digits(rng, 8);
  const check = weightedSum(body, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
  if (check === 10) return phTin(rng);
  return `${body.slice(0, 3)}-${body.slice(3, 6)}-${body.slice(6)}${check}-000`;
};
export const luhnNumber = (rng: Rng, prefix: string, length: number): string => {
  const body = prefix + digits(rng, length - prefix.length - 1);
  return body + luhnCheckDigit(body);
};

/** n random capital letters. */
export const L = (rng: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + int(rng, 0, 25))).join('');
/** Two-digit zero padding. */
export const p2 = (n: number) => String(n).padStart(2, '0');
