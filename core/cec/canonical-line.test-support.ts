/**
 * Record lines for the tests of the canonical-line fast path (canonical-line.test.ts) and of its two scanners
 * (canonical-scan-wasm.test.ts): the builder's canonical form of generated records with the awkward parts of
 * RFC 8785, and the spellings JSON allows but RFC 8785 does not.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { computeRecordHash, jcs } from '../audit/chain.ts';

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
export const hex = (seed: string): string => sha256(seed);

export type Envelope = {
  seq: number;
  record_id: string;
  project_id: string;
  schema_key: string;
  timestamp: string;
  recorded_at: string;
  payload: unknown;
  prev_hash: string;
};

export const envelope = (payload: unknown, seq = 7): Envelope => ({
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
export const canonicalLine = (record: Envelope): string => jcs({ ...record, hash: computeRecordHash(record as never) });

/**
 * `text` is a record line whose hash member reads HASH; fills in the hash the fast path would compute over
 * the raw bytes (prev_hash + "{" + the line after the hash member), whatever the spelling.
 */
export const withByteHash = (text: string, prevHash: string): string => {
  const body = text.slice(text.indexOf('"HASH",') + 7);
  return text.replace('"HASH"', JSON.stringify(sha256(`${prevHash}{${body}`)));
};

/** JSON values with the awkward parts of RFC 8785: astral and escaped characters, index-like keys, doubles. */
export const awkwardString = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', '"', '\\', '/', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '😀', '\b\f\n\r\t', 'a\u0001b'),
);
export const awkwardKey = fc.oneof(awkwardString, fc.constantFrom('1', '10', '9', '__proto__', 'a', 'b', 'A', '\u20ac', '\r'));
export const awkwardNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(-0, 1e21, 1e-7, 1e-6, 0.1, 5e-324),
);
export const { value: awkwardValue } = fc.letrec((tie) => ({
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
export const payloadArb = fc.dictionary(awkwardKey, awkwardValue, { maxKeys: 6 });

/** Spellings JSON allows and RFC 8785 does not, applied to a canonical line's text. */
export const respell: Array<[string, (text: string) => string]> = [
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

/** A generated record in the builder's canonical form, or null when JCS cannot carry its payload (a lone surrogate). */
export const canonicalLineArb = fc.tuple(payloadArb, fc.integer({ min: 1, max: 2 ** 40 })).map(([payload, seq]) => {
  try {
    return canonicalLine(envelope(payload, seq));
  } catch {
    return null;
  }
});

/** A canonical line respelt in one way JSON allows and RFC 8785 does not, hashed over its raw bytes (null: no change). */
export const respeltLineArb = fc.tuple(payloadArb, fc.constantFrom(...respell)).map(([payload, [_name, change]]) => {
  const record = envelope(payload);
  let line: string;
  try {
    line = jcs({ ...record, hash: 'HASH' });
  } catch {
    return null;
  }
  const spelt = change(line);
  return spelt === line ? null : withByteHash(spelt, record.prev_hash);
});
