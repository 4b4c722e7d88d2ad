/** CRYPTO: Bitcoin addresses; Base58Check (1…/3…) or Bech32/Bech32m (bc1…) checksum lifts to 1.0. */
import { createHash } from 'node:crypto';
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

const base58Decode = (value: string): Uint8Array | null => {
  let n = 0n;
  for (const ch of value) {
    const v = BASE58.indexOf(ch);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  for (const ch of value) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
};

/** Base58Check: the last 4 bytes are the first 4 of SHA-256(SHA-256(payload)). */
export const base58CheckValid = (value: string): boolean => {
  const bytes = base58Decode(value);
  if (bytes?.length !== 25) return false;
  const payload = bytes.subarray(0, 21);
  const check = sha256(sha256(payload)).subarray(0, 4);
  return Buffer.from(bytes.subarray(21)).equals(check);
};

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const polymod = (values: number[]): number => {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const b = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((b >>> i) & 1) chk ^= gen[i] ?? 0;
  }
  return chk >>> 0;
};

/** Bech32 (BIP-173) or Bech32m (BIP-350) checksum of a `bc1…` address. */
export const bech32Valid = (value: string): boolean => {
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) return false;
  const lower = value.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length || lower.length > 90) return false;
  const hrp = lower.slice(0, sep);
  const data: number[] = [];
  for (const ch of lower.slice(sep + 1)) {
    const v = BECH32.indexOf(ch);
    if (v < 0) return false;
    data.push(v);
  }
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = polymod([...expanded, ...data]);
  return mod === 1 || mod === 0x2bc830a3;
};

export const cryptoRecognizer = definePatternRecognizer({
  name: 'CryptoRecognizer',
  entity: 'CRYPTO',
  languages: GENERIC_LANGUAGES,
  context: ['wallet', 'btc', 'bitcoin', 'crypto'],
  patterns: [{ name: 'Crypto (Medium)', regex: /(?:bc1|[13])[a-zA-HJ-NP-Z0-9]{25,59}/i, score: 0.5 }],
  validate: (text) => (text.toLowerCase().startsWith('bc1') ? bech32Valid(text) : base58CheckValid(text)),
});
