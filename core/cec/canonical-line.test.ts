/**
 * The byte-level fast path of the record check against the general path (JSON.parse + exact RFC 8785): the fast
 * path may decline any line, but whatever it accepts the general path must accept with the same fields. Lines
 * are generated canonical (the fast path must take them) and spelt non-canonically in every way JSON allows,
 * each with a hash the fast path would compute over the raw bytes, so a fast path that mistook such a spelling
 * for RFC 8785 would accept a record the exact path rejects.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeRecordHash, jcs } from '../audit/chain.ts';
import { schemaKeys } from '../audit/types.ts';
import { CanonicalLineChecker } from './canonical-line.ts';
import { checkParsedLine } from './record-line.ts';

const maxDepth = 64;
const checker = new CanonicalLineChecker(maxDepth);
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hex = (seed: string): string => sha256(seed);

type Envelope = {
  seq: number;
  record_id: string;
  project_id: string;
  schema_key: string;
  timestamp: string;
  recorded_at: string;
  payload: unknown;
  prev_hash: string;
};

const envelope = (payload: unknown, seq = 7): Envelope => ({
  seq,
  record_id: `r-${seq}`,
  project_id: 'proj',
  schema_key: 'score_records',
  timestamp: '2026-01-02T03:04:05.000Z',
  recorded_at: '2026-01-02T03:04:06.000Z',
  payload,
  prev_hash: hex(`prev ${seq}`),
});

/** The line as the builder writes it: JCS of the record with its (correct) hash. */
const canonicalLine = (record: Envelope): string => jcs({ ...record, hash: computeRecordHash(record as never) });

/**
 * `text` is a record line whose hash member reads HASH; fills in the hash the fast path would compute over
 * the raw bytes (prev_hash + "{" + the line after the hash member), whatever the spelling.
 */
const withByteHash = (text: string, prevHash: string): string => {
  const body = text.slice(text.indexOf('"HASH",') + 7);
  return text.replace('"HASH"', JSON.stringify(sha256(`${prevHash}{${body}`)));
};

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

/** JSON values with the awkward parts of RFC 8785: astral and escaped characters, index-like keys, doubles. */
const awkwardString = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '"', '\\', '/', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '😀', '\b\f\n\r\t', 'a\u0001b'),
);
const awkwardKey = fc.oneof(awkwardString, fc.constantFrom('1', '10', '9', '__proto__', 'a', 'b', 'A', '\u20ac', '\r'));
const awkwardNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(-0, 1e21, 1e-7, 1e-6, 0.1, 5e-324),
);
const { value: awkwardValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    awkwardString,
    awkwardNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(awkwardKey, tie('value'), { maxKeys: 5 }),
  ),
}));
const payloadArb = fc.dictionary(awkwardKey, awkwardValue, { maxKeys: 6 });

/** Spellings JSON allows and RFC 8785 does not, applied to a canonical line's text. */
const respell: Array<[string, (text: string) => string]> = [
  ['a space after a colon', (t) => t.replace('":', '": ')],
  ['a number with a trailing zero', (t) => t.replace(/(:-?\d+\.\d+)([,}\]])/, '$10$2')],
  ['an exponent in capitals', (t) => t.replace(/:(\d+)([,}\]])/, ':$1E0$2')],
  ['a solidus escaped', (t) => t.replace('/', '\\/')],
  ['a letter escaped', (t) => t.replace(/"([a-z])/, (_m, c: string) => `"\\u00${c.charCodeAt(0).toString(16)}`)],
  ['an upper-case unicode escape', (t) => t.replace(/\\u00([0-1])([a-f])/, (_m, h: string, l: string) => `\\u00${h}${l.toUpperCase()}`)],
  ['a control character escaped as \\u', (t) => t.replace('\\n', '\\u000a')],
  ['two keys swapped', (t) => t.replace(/\{"([^"\\]+)":([^,{}[\]]+),"([^"\\]+)":([^,{}[\]]+)([,}])/, '{"$3":$4,"$1":$2$5')],
  ['a duplicated key', (t) => t.replace(/\{"([^"\\]+)":([^,{}[\]]+)([,}])/, '{"$1":$2,"$1":$2$3')],
];

describe('canonical record lines: fast path vs exact RFC 8785 path', () => {
  it('takes the builder layout fast and agrees with the exact path on generated payloads', () => {
    fc.assert(
      fc.property(payloadArb, fc.integer({ min: 1, max: 2 ** 40 }), (payload, seq) => {
        let line: string;
        try {
          line = canonicalLine(envelope(payload, seq));
        } catch {
          return; // a lone surrogate: JCS cannot carry it, nothing to compare
        }
        // Keys with an escape or a non-ASCII character are left to the exact path; everything else goes fast.
        expect(agree(line), line).toBe(plainKeys(line) ? 'fast' : 'declined');
      }),
      { numRuns: 600 },
    );
  });

  it('declines every non-canonical spelling even when its hash is computed over the raw bytes', () => {
    fc.assert(
      fc.property(payloadArb, fc.constantFrom(...respell), (payload, [_name, change]) => {
        const record = envelope(payload);
        let line: string;
        try {
          line = jcs({ ...record, hash: 'HASH' });
        } catch {
          return;
        }
        const spelt = change(line);
        if (spelt === line) return;
        const text = withByteHash(spelt, record.prev_hash);
        expect(agree(text), text).toBe('declined');
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
