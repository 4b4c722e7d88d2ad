import { describe, expect, it } from 'vitest';
import { apiKeyPattern, displayPrefix, generateApiKey, isWellFormedApiKey } from './format.ts';

describe('API key format', () => {
  it('has a fixed prefix, 36 base62 characters and a valid checksum', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) {
      expect(key).toMatch(apiKeyPattern);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('rejects a typo, a truncation and a foreign token without a database look-up', () => {
    const key = generateApiKey();
    const swapped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(isWellFormedApiKey(swapped)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`ghp_${key.slice(4)}`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('shows only a short prefix in lists', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 10));
  });
});
