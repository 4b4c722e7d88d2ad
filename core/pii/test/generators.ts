/**
 * Programmatic generators of valid (checksummed) identifiers, for the accuracy corpus, the tests and the
 * benchmark corpus. Each takes a seeded random source so corpora are reproducible.
 */
import { createHash } from 'node:crypto';
import { iso7064Mod11_10, iso7064Mod11_2, luhnCheckDigit, mod97, verhoeffCheckDigit, weightedSum } from '../checksums.ts';
import { fiscalCodeControl } from '../recognizers/eu/it.ts';

export type Rng = () => number;

/** Mulberry32: small, fast, seedable. */
export const seededRng = (seed: number): Rng => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
export const digits = (rng: Rng, n: number): string => Array.from({ length: n }, () => String(int(rng, 0, 9))).join('');
export const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, 0, list.length - 1)] as T;
const letters = (rng: Rng, n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'): string =>
  Array.from({ length: n }, () => pick(rng, [...alphabet])).join('');
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Changes one digit (the `nth` digit, default the last) so that a checksum no longer holds (for negatives). */
export const corruptDigit = (value: string, rng: Rng, nth?: number): string => {
  const positions = [...value].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  const i = positions[nth ?? positions.length - 1] ?? 0;
  const old = Number(value[i]);
  const next = (old + int(rng, 1, 9)) % 10;
  return value.slice(0, i) + String(next) + value.slice(i + 1);
};

export const creditCard = (rng: Rng): string => {
  const prefix = pick(rng, ['4', '51', '55', '6011', '37', '34']);
  const length = prefix.startsWith('3') ? 15 : 16;
  const body = prefix + digits(rng, length - prefix.length - 1);
  const full = body + luhnCheckDigit(body);
  return length === 16 ? full.replace(/(\d{4})(?=\d)/g, '$1 ') : full;
};

/** IBANs of countries without a national BBAN check digit (so a random BBAN is valid). */
export const iban = (rng: Rng): string => {
  const country = pick(rng, ['DE', 'GB', 'AT', 'IE', 'CH']);
  const bban =
    country === 'DE'
      ? digits(rng, 18)
      : country === 'GB' || country === 'IE'
        ? `${letters(rng, 4)}${digits(rng, 14)}`
        : country === 'AT'
          ? digits(rng, 16)
          : digits(rng, 17);
  const check = 98 - mod97(`${bban}${country}00`);
  return `${country}${pad(check)}${bban}`.replace(/(.{4})(?=.)/g, '$1 ');
};

export const ssn = (rng: Rng): string => `${int(rng, 101, 665)}-${pad(int(rng, 1, 99))}-${pad(int(rng, 1, 9999), 4)}`;

export const nhs = (rng: Rng): string => {
  for (;;) {
    const body = digits(rng, 9);
    const rest = 11 - (weightedSum(body, [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
    const check = rest === 11 ? 0 : rest;
    if (check !== 10) return `${body.slice(0, 3)} ${body.slice(3, 6)} ${body.slice(6)}${check}`;
  }
};

const date = (rng: Rng, from = 1950, to = 2005): { y: number; m: number; d: number } => ({
  y: int(rng, from, to),
  m: int(rng, 1, 12),
  d: int(rng, 1, 28),
});

export const piplId = (rng: Rng): string => {
  const { y, m, d } = date(rng);
  const body = `${pick(rng, ['11', '31', '44', '51', '65'])}${digits(rng, 4)}${y}${pad(m)}${pad(d)}${digits(rng, 3)}`;
  return body + iso7064Mod11_2(body);
};

export const dea = (rng: Rng): string => {
  const d = digits(rng, 6);
  const n = (i: number) => Number(d[i]);
  const check = (n(0) + n(2) + n(4) + 2 * (n(1) + n(3) + n(5))) % 10;
  return `${pick(rng, ['A', 'B', 'F', 'M'])}${letters(rng, 1)}${d}${check}`;
};

const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const bitcoinAddress = (rng: Rng): string => {
  const payload = Buffer.from([0, ...Array.from({ length: 20 }, () => int(rng, 0, 255))]);
  const check = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  const bytes = Buffer.concat([payload, check]);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = base58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
};

export const esNif = (rng: Rng): string => {
  const n = int(rng, 10_000_000, 99_999_999);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
};
export const esNie = (rng: Rng): string => {
  const p = int(rng, 0, 2);
  const n = digits(rng, 7);
  return `${'XYZ'[p]}${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[Number(`${p}${n}`) % 23]}`;
};
export const itFiscalCode = (rng: Rng): string => {
  const body = `${letters(rng, 6)}${pad(int(rng, 50, 99))}${pick(rng, [...'ABCDEHLMPRST'])}${pad(int(rng, 1, 28))}${letters(rng, 1)}${digits(rng, 3)}`;
  return body + fiscalCodeControl(body);
};
export const itVat = (rng: Rng): string => {
  const body = `${digits(rng, 7)}${pad(int(rng, 1, 100), 3)}`;
  return body + luhnCheckDigit(body);
};
export const pesel = (rng: Rng): string => {
  const { y, m, d } = date(rng, 1950, 1999);
  const body = `${pad(y % 100)}${pad(m)}${pad(d)}${digits(rng, 4)}`;
  return body + ((10 - (weightedSum(body, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10);
};
export const hetu = (rng: Rng): string => {
  const { y, m, d } = date(rng, 1950, 1999);
  const dmy = `${pad(d)}${pad(m)}${pad(y % 100)}`;
  const n = pad(int(rng, 2, 899), 3);
  return `${dmy}-${n}${'0123456789ABCDEFHJKLMNPRSTUVWXY'[Number(dmy + n) % 31]}`;
};
export const personnummer = (rng: Rng): string => {
  const { y, m, d } = date(rng, 1950, 1999);
  const body = `${pad(y % 100)}${pad(m)}${pad(d)}${digits(rng, 3)}`;
  return `${body.slice(0, 6)}-${body.slice(6)}${luhnCheckDigit(body)}`;
};
export const organisationsnummer = (rng: Rng): string => {
  const body = `${int(rng, 1, 9)}${int(rng, 0, 9)}${int(rng, 2, 9)}${digits(rng, 6)}`;
  return `${body.slice(0, 6)}-${body.slice(6)}${luhnCheckDigit(body)}`;
};
export const trNationalId = (rng: Rng): string => {
  const n = [int(rng, 1, 9), ...Array.from({ length: 8 }, () => int(rng, 0, 9))];
  const odd = (n[0] ?? 0) + (n[2] ?? 0) + (n[4] ?? 0) + (n[6] ?? 0) + (n[8] ?? 0);
  const even = (n[1] ?? 0) + (n[3] ?? 0) + (n[5] ?? 0) + (n[7] ?? 0);
  const d10 = (((7 * odd - even) % 10) + 10) % 10;
  const d11 = (n.reduce((a, b) => a + b, 0) + d10) % 10;
  return `${n.join('')}${d10}${d11}`;
};
export const deTaxId = (rng: Rng): string => {
  for (;;) {
    const body = `${int(rng, 1, 9)}${digits(rng, 9)}`;
    const counts = new Map<string, number>();
    for (const c of body) counts.set(c, (counts.get(c) ?? 0) + 1);
    if ([...counts.values()].every((c) => c <= 3)) return body + iso7064Mod11_10(body);
  }
};
export const deVatId = (rng: Rng): string => {
  const body = digits(rng, 8);
  return `DE${body}${iso7064Mod11_10(body)}`;
};
export const aadhaar = (rng: Rng): string => {
  const body = `${int(rng, 2, 9)}${digits(rng, 10)}`;
  const full = body + verhoeffCheckDigit(body);
  return `${full.slice(0, 4)} ${full.slice(4, 8)} ${full.slice(8)}`;
};
export const krRrn = (rng: Rng, foreigner = false): string => {
  const { y, m, d } = date(rng, 1950, 1999);
  const body = `${pad(y % 100)}${pad(m)}${pad(d)}${foreigner ? int(rng, 5, 6) : int(rng, 1, 2)}${pad(int(rng, 0, 95))}${digits(rng, 3)}`;
  const check = ((foreigner ? 13 : 11) - (weightedSum(body, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11)) % 10;
  return `${body.slice(0, 6)}-${body.slice(6)}${check}`;
};
export const thTnin = (rng: Rng): string => {
  const body = `${int(rng, 1, 8)}${int(rng, 10, 96)}${digits(rng, 9)}`;
  return body + ((11 - (weightedSum(body, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 10);
};
export const ngNin = (rng: Rng): string => {
  const body = `${int(rng, 1, 9)}${digits(rng, 9)}`;
  return body + verhoeffCheckDigit(body);
};
export const zaId = (rng: Rng): string => {
  const { y, m, d } = date(rng, 1950, 1999);
  const body = `${pad(y % 100)}${pad(m)}${pad(d)}${digits(rng, 4)}${int(rng, 0, 1)}8`;
  return body + luhnCheckDigit(body);
};
export const caSin = (rng: Rng): string => {
  const body = `${int(rng, 1, 7)}${digits(rng, 7)}`;
  const full = body + luhnCheckDigit(body);
  return `${full.slice(0, 3)}-${full.slice(3, 6)}-${full.slice(6)}`;
};
export const abn = (rng: Rng): string => {
  for (;;) {
    const body = `${int(rng, 1, 9)}${digits(rng, 10)}`;
    const adjusted = String(Number(body[0]) - 1) + body.slice(1);
    if (weightedSum(adjusted, [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 === 0)
      return `${body.slice(0, 2)} ${body.slice(2, 5)} ${body.slice(5, 8)} ${body.slice(8)}`;
  }
};
export const tfn = (rng: Rng): string => {
  for (;;) {
    const body = digits(rng, 9);
    if (weightedSum(body, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0) return `${body.slice(0, 3)} ${body.slice(3, 6)} ${body.slice(6)}`;
  }
};
export const aba = (rng: Rng): string => {
  for (;;) {
    const body = `${pick(rng, ['0', '1', '2', '3'])}${digits(rng, 8)}`;
    if (weightedSum(body, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0) return body;
  }
};
export const npi = (rng: Rng): string => {
  const body = `${int(rng, 1, 2)}${digits(rng, 8)}`;
  for (let d = 0; d < 10; d++) if (luhnCheckDigit(`80840${body}`) === d) return `${body}${d}`;
  return body;
};
