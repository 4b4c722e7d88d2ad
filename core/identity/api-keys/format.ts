import { randomBytes } from 'node:crypto';

/**
 * API key format: `svc_` + 30 base62 characters of randomness (~178 bits) + 6 base62 characters of CRC-32.
 * The fixed prefix lets secret scanners (GitHub, gitleaks) recognise a leaked key; the checksum rejects a typo or
 * a truncated paste without touching the database. Pattern: /\bsvc_[0-9A-Za-z]{36}\b/.
 */
export const apiKeyPrefix = 'svc_';
const randomLength = 30;
const checksumLength = 6;
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const apiKeyPattern = /^svc_[0-9A-Za-z]{36}$/;

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

const crc32 = (text: string): number => {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};

const base62 = (value: number, width: number): string => {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = alphabet[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
};

const randomBase62 = (length: number): string => {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character uniformly likely (248 = 4 * 62).
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
};

export const generateApiKey = (): string => {
  const body = randomBase62(randomLength);
  return `${apiKeyPrefix}${body}${base62(crc32(body), checksumLength)}`;
};

/** True when the text has the shape and a correct checksum; says nothing about whether the key exists. */
export const isWellFormedApiKey = (candidate: string): boolean => {
  if (!apiKeyPattern.test(candidate)) return false;
  const body = candidate.slice(apiKeyPrefix.length, apiKeyPrefix.length + randomLength);
  return candidate.slice(-checksumLength) === base62(crc32(body), checksumLength);
};

/** The first characters after the prefix, shown in lists so a user can tell keys apart without the secret. */
export const displayPrefix = (key: string): string => key.slice(0, apiKeyPrefix.length + 6);
