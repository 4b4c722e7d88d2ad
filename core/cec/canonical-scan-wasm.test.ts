/**
 * The WebAssembly scanner (canonical-scan.wat) against its TypeScript reference (canonical-scan.ts): on
 * generated canonical lines, on every non-canonical spelling, on random byte-level damage and on hand-made
 * hostile lines (escapes, surrogates, raw control bytes, overlong and truncated UTF-8, non-canonical numbers,
 * duplicate and unsorted keys, nesting at the limit, truncations), both must decline the same lines and accept
 * the same ones with the same fields and the same hashed bytes; the full checks built on each must return the
 * same record. Lines are also placed inside a larger buffer, between bytes that would continue them, since both
 * scanners must stop at the line's end.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jcs } from '../audit/chain.ts';
import { CanonicalLineChecker } from './canonical-line.ts';
import { canonicalLine, canonicalLineArb, envelope, payloadArb, respeltLineArb, withByteHash } from './canonical-line.test-support.ts';
import { JsLineScanner, type LineScanner } from './canonical-scan.ts';
import { createLineScanner, WasmLineScanner } from './canonical-scan-wasm.ts';

const maxDepth = 64;
const reference = new JsLineScanner(maxDepth);
const wasm = new WasmLineScanner(maxDepth);
const referenceChecker = new CanonicalLineChecker(maxDepth, new JsLineScanner(maxDepth));
const wasmChecker = new CanonicalLineChecker(maxDepth, new WasmLineScanner(maxDepth));

/** What a scanner made of a line: null, or its fields and hashed bytes (copied: both reuse their buffers). */
const scanned = (scanner: LineScanner, line: Buffer, start: number, end: number) => {
  const hashed = scanner.scan(line, start, end);
  return hashed === null ? null : { fields: { ...scanner.fields }, hashed: Buffer.from(hashed).toString('latin1') };
};

let accepted = 0;
/** Both scanners and both checkers on `line`, alone and between `before` and `after`; returns the reference's verdict. */
const same = (line: Buffer, before: Buffer = Buffer.alloc(0), after: Buffer = Buffer.alloc(0)): 'accepted' | 'declined' => {
  const framed = Buffer.concat([before, line, after]);
  const expected = scanned(reference, line, 0, line.length);
  for (const [buffer, start] of [
    [line, 0],
    [framed, before.length],
  ] as const) {
    const end = start + line.length;
    const fromReference = scanned(reference, buffer, start, end);
    expect(scanned(wasm, buffer, start, end), line.toString('latin1')).toEqual(fromReference);
    expect(wasmChecker.check(buffer, start, end)).toEqual(referenceChecker.check(buffer, start, end));
    expect(fromReference === null).toBe(expected === null);
  }
  if (expected !== null) accepted += 1;
  return expected === null ? 'declined' : 'accepted';
};

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** A canonical line with `payloadText` spliced in as its payload, its hash over the raw bytes. */
const withPayload = (payloadText: string): Buffer => {
  const record = envelope({ p: 0 });
  return bytes(withByteHash(jcs({ ...record, hash: 'HASH' }).replace('{"p":0}', payloadText), record.prev_hash));
};

/** Bytes that matter to the scan: structure, escapes, controls, high bytes of every UTF-8 class. */
const hostileByte = fc.oneof(
  fc.constantFrom(...Buffer.from('"\\{}[],:-+.0123456789eEutfnab/ ', 'latin1')),
  fc.integer({ min: 0, max: 0x1f }),
  fc.integer({ min: 0x7f, max: 0xff }),
);
const damage = fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom('replace', 'insert', 'delete'), byte: hostileByte }), {
  minLength: 1,
  maxLength: 3,
});
/** Bytes around the line that would continue it if a scanner read past its end. */
const frame = fc.uint8Array({ maxLength: 8 }).map((array) => Buffer.from(array));
const continuation = fc.constantFrom('', '}', '0', '"', '1e5}', 'e+1', '\\u0061"', ':1}', ']}', '\u0000');

describe('the WebAssembly record-line scanner agrees with the TypeScript reference', () => {
  it('is the committed build of canonical-scan.wat (the generator reproduces it byte for byte)', () => {
    const run = spawnSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build-wasm.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('accepts generated canonical lines identically, alone and framed by bytes that would continue them', () => {
    accepted = 0;
    fc.assert(
      fc.property(canonicalLineArb, frame, continuation, (line, before, after) => {
        if (line !== null) same(bytes(line), before, bytes(after));
      }),
      { numRuns: 1500 },
    );
    // Most generated lines take the fast path (keys with escapes or non-ASCII do not), so acceptance is compared.
    expect(accepted).toBeGreaterThan(200);
  });

  it('declines every non-canonical spelling identically', () => {
    fc.assert(
      fc.property(respeltLineArb, (text) => {
        if (text !== null) expect(same(bytes(text))).toBe('declined');
      }),
      { numRuns: 1500 },
    );
  });

  it('agrees on lines damaged byte by byte (replaced, inserted, deleted hostile bytes)', () => {
    fc.assert(
      fc.property(payloadArb, damage, continuation, (payload, changes, after) => {
        let line: Buffer;
        try {
          line = bytes(canonicalLine(envelope(payload)));
        } catch {
          return;
        }
        for (const { at, kind, byte } of changes) {
          const i = at % (line.length + 1);
          const tail = line.subarray(kind === 'insert' ? i : i + 1);
          line = Buffer.concat([line.subarray(0, i), kind === 'delete' ? Buffer.alloc(0) : Buffer.from([byte]), tail]);
        }
        same(line, Buffer.alloc(0), bytes(after));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on every truncation of a canonical line', () => {
    const line = bytes(canonicalLine(envelope({ a: [1, 0.5, -2e-7, 'x\n\u00e9\u{1f600}', { b: null, c: true }], z: false })));
    expect(same(line)).toBe('accepted');
    for (let end = 0; end < line.length; end += 1)
      expect(same(line.subarray(0, end), Buffer.alloc(0), line.subarray(end))).toBe('declined');
  });

  it('agrees on hand-made hostile payloads', () => {
    const controls = Array.from({ length: 32 }, (_, c) => `"\\u00${c.toString(16).padStart(2, '0')}"`);
    const hostile = [
      ...controls,
      ...controls.map((text) => text.toUpperCase()),
      '"\\b\\f\\n\\r\\t\\"\\\\"',
      '"\\/"',
      '"\\u0061"',
      '"\\ud83d\\ude00"',
      '"\\ud800"',
      '"\\x41"',
      '"\\u00"',
      '"\\u007f"',
      '"\u007f"',
      '"\u2028\u2029"',
      '"é😀"',
      ...[0x00, 0x01, 0x09, 0x0a, 0x1f].map((c) => `"a${String.fromCharCode(c)}b"`),
      '1',
      '-1',
      '0',
      '-0',
      '1.0',
      '1.5',
      '1.50',
      '01',
      '1e2',
      '1E2',
      '1e+21',
      '1e21',
      '1e-7',
      '0.000001',
      '0.0000001',
      '123456789012345',
      '1234567890123456',
      '123456789012345678901',
      '0.1234567890123456',
      '5e-324',
      '1.7976931348623157e+308',
      '1e400',
      '-',
      '.5',
      '1.',
      '1e',
      '1e+',
      'true',
      'tru',
      'false',
      'nul',
      'null',
      '[]',
      '{}',
      '[1,]',
      '[,1]',
      '{"a":1,}',
      '{"a" :1}',
      '{"a":1,"a":1}',
      '{"b":1,"a":2}',
      '{"a":1,"a!":2}',
      '{"a":1,"ab":2}',
      '{"ab":1,"a":2}',
      '{"\\u0061":1}',
      '{"é":1}',
      '{"":1,"a":2}',
      '{"a":{"b":[{"c":[[]]}]}}',
      '[1 ]',
      '[1\t]',
      '"unterminated',
      '"a"b',
    ];
    for (const value of hostile) {
      same(withPayload(`{"v":${value}}`));
      same(withPayload(`{"v":[${value}]}`), Buffer.alloc(0), bytes('"}]'));
    }
    // Raw bytes no JSON.stringify output holds: overlong, surrogate, truncated and stray UTF-8, a lone high byte.
    for (const raw of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80], [0xff], [0xf4, 0x90, 0x80, 0x80]]) {
      const line = withPayload('{"v":"aXb"}');
      const at = line.indexOf('aXb') + 1;
      same(Buffer.concat([line.subarray(0, at), Buffer.from(raw), line.subarray(at + 1)]));
    }
    // Nesting on both sides of the limit, in objects and arrays.
    for (const levels of [maxDepth - 3, maxDepth - 2, maxDepth - 1, maxDepth, maxDepth + 5]) {
      same(withPayload(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`));
      same(withPayload(`{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`));
    }
    expect(same(withPayload(`{"a":${'['.repeat(maxDepth - 3)}${']'.repeat(maxDepth - 3)}}`))).toBe('accepted');
    expect(same(withPayload(`{"a":${'['.repeat(maxDepth)}${']'.repeat(maxDepth)}}`))).toBe('declined');
  });

  it('grows its memory for long lines and keeps agreeing after', () => {
    const long = bytes(canonicalLine(envelope({ text: 'x'.repeat(300_000), list: Array.from({ length: 20_000 }, (_, i) => i / 7) })));
    expect(same(long)).toBe('accepted');
    expect(same(bytes(canonicalLine(envelope({ a: 1 }))))).toBe('accepted');
  });

  it('is used where its container stack holds the nesting limit, the reference elsewhere', () => {
    expect(createLineScanner(maxDepth)).toBeInstanceOf(WasmLineScanner);
    expect(createLineScanner(1024)).toBeInstanceOf(WasmLineScanner);
    expect(createLineScanner(1025)).toBeInstanceOf(JsLineScanner);
    // At 1024 levels its stack is full: it must still agree with the reference at the edge.
    const deep = new WasmLineScanner(1024);
    const deepReference = new JsLineScanner(1024);
    const nested = (levels: number): Buffer => withPayload(`{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`);
    expect(scanned(deepReference, nested(1022), 0, nested(1022).length)).not.toBeNull();
    for (const levels of [1022, 1023, 1024, 1025]) {
      const line = nested(levels);
      expect(scanned(deep, line, 0, line.length)).toEqual(scanned(deepReference, line, 0, line.length));
    }
    // Past its stack it declines everything (the reference is then used), never scans out of bounds.
    const plain = withPayload('{"a":1}');
    expect(new JsLineScanner(1025).scan(plain, 0, plain.length)).not.toBeNull();
    expect(new WasmLineScanner(1025).scan(plain, 0, plain.length)).toBeNull();
  });
});
