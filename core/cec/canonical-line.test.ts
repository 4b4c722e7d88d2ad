/**
 * The byte-level fast path of the record check against the general path (JSON.parse + exact RFC 8785): the fast
 * path may decline any line, but whatever it accepts the general path must accept with the same fields. Lines
 * are generated canonical (the fast path must take them) and spelt non-canonically in every way JSON allows,
 * each with a hash the fast path would compute over the raw bytes, so a fast path that mistook such a spelling
 * for RFC 8785 would accept a record the exact path rejects.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeRecordHash, jcs } from '../audit/chain.ts';
import { schemaKeys } from '../audit/types.ts';
import { CanonicalLineChecker } from './canonical-line.ts';
import { awkwardNumber, canonicalLine, canonicalLineArb, envelope, respeltLineArb, withByteHash } from './canonical-line.test-support.ts';
import { checkParsedLine } from './record-line.ts';

const maxDepth = 64;
const checker = new CanonicalLineChecker(maxDepth);
/** Runs both paths; asserts the fast one accepts only what the exact one accepts, identically. */
const agree = (text: string): 'fast' | 'declined' => {
  const bytes = Buffer.from(text, 'utf8');
  const fast = checker.check(bytes, 0, bytes.length);
  if (fast === null) return 'declined';
  const exact = checkParsedLine(text, maxDepth);
  expect(exact, text).toMatchObject({ ...fast, content: 'ok' });
  return 'fast';
};

/** Whether every key in the JSON text is ASCII that JSON writes without an escape (DEL included). */
const plainKeys = (text: string): boolean => {
  let plain = true;
  JSON.parse(text, (key: string, value: unknown) => {
    if (!/^[\x20-\x21\x23-\x5b\x5d-\x7f]*$/.test(key)) plain = false;
    return value;
  });
  return plain;
};

describe('canonical record lines: fast path vs exact RFC 8785 path', () => {
  it('takes the builder layout fast and agrees with the exact path on generated payloads', () => {
    fc.assert(
      fc.property(canonicalLineArb, (line) => {
        // Keys with an escape or a non-ASCII character are left to the exact path; everything else goes fast.
        if (line !== null) expect(agree(line), line).toBe(plainKeys(line) ? 'fast' : 'declined');
      }),
      { numRuns: 600 },
    );
  });

  it('declines every non-canonical spelling even when its hash is computed over the raw bytes', () => {
    fc.assert(
      fc.property(respeltLineArb, (text) => {
        if (text !== null) expect(agree(text), text).toBe('declined');
      }),
      { numRuns: 800 },
    );
  });

  it('writes numbers the ECMAScript way only: every double passes, other spellings fall to the exact path', () => {
    fc.assert(
      fc.property(awkwardNumber, (value) => {
        expect(agree(canonicalLine(envelope({ n: value })))).toBe('fast');
      }),
      { numRuns: 800 },
    );
    const spellings = ['1.0', '1E2', '1e2', '1e+2', '-0', '0.0', '00', '1.50', '0.0000001', '1e-7', '123456789012345678', '1e400', '-0.0'];
    for (const spelling of spellings) {
      const record = envelope({ n: 1 });
      const text = withByteHash(jcs({ ...record, hash: 'HASH' }).replace('"n":1', `"n":${spelling}`), record.prev_hash);
      const fast = agree(text);
      expect(fast === 'fast', spelling).toBe(String(Number(spelling)) === spelling);
    }
  });

  it('leaves the nesting limit to the exact path and declines the old field order and extra fields', () => {
    const nested = (levels: number): unknown => (levels === 1 ? {} : { a: nested(levels - 1) });
    for (const levels of [maxDepth - 2, maxDepth - 1, maxDepth, maxDepth + 1, 3000]) agree(canonicalLine(envelope(nested(levels))));
    expect(agree(canonicalLine(envelope(nested(maxDepth - 2))))).toBe('fast');
    const record = envelope({ a: 1 });
    const hash = computeRecordHash(record as never);
    const oldOrder = JSON.stringify({ ...record, hash });
    expect(agree(oldOrder)).toBe('declined');
    expect(checkParsedLine(oldOrder, maxDepth)).toMatchObject({ content: 'ok', hash });
    expect(agree(canonicalLine(envelope({ a: 1 })).replace('"hash":', '"approved_by":"x","hash":'))).toBe('declined');
    for (const key of schemaKeys) expect(agree(canonicalLine({ ...envelope({ k: key }), schema_key: key }))).toBe('fast');
    expect(agree(canonicalLine({ ...envelope({}), schema_key: 'other' }))).toBe('declined');
  });

  it('declines a wrong hash, so the exact path words the verdict', () => {
    const line = canonicalLine(envelope({ a: 'b' }));
    const wrong = line.replace(/"hash":"(.)/, (_m, c: string) => `"hash":"${c === '0' ? '1' : '0'}`);
    expect(agree(wrong)).toBe('declined');
    expect(checkParsedLine(wrong, maxDepth)).toMatchObject({ content: 'hash-mismatch' });
  });

  it('declines hashes that are not lowercase hex, even when the digest over the raw bytes matches', () => {
    const record = envelope({ a: 'b' });
    const line = canonicalLine(record);
    const digest = JSON.parse(line).hash as string;
    // The hash member in upper case: the same digest, not the text RFC 8785 hashing writes.
    expect(agree(line.replace(digest, digest.toUpperCase()))).toBe('declined');
    // prev_hash in upper case or with a non-hex character, the hash recomputed over those very bytes.
    for (const prev of [record.prev_hash.toUpperCase(), `g${record.prev_hash.slice(1)}`]) {
      const text = canonicalLine({ ...record, prev_hash: prev }).replace(/"hash":"[^"]*"/, '"hash":"HASH"');
      expect(agree(withByteHash(text, prev))).toBe('declined');
    }
  });
});
