/**
 * The RFC 8785 canonicaliser embedded in docs/auditor/verify-offline.sh (python3 stdlib) against the product's
 * JCS on the RFC's examples and on thousands of random doubles, strings and keys: both must write identical bytes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { missingTools } from '../test-support/tools.ts';
import { jcs } from '../audit/chain.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'svc-jcs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scriptText = readFileSync(join(import.meta.dirname, '../../docs/auditor/verify-offline.sh'), 'utf8');
const helper = join(dir, 'helper.py');
writeFileSync(helper, scriptText.slice(scriptText.indexOf("<<'PY'\n") + 7, scriptText.indexOf('\nPY\n') + 1));

/** JCS of a value (or of raw JSON text, to feed literals JavaScript cannot write) by the script's python. */
const pythonJcs = async (value: unknown, raw?: string): Promise<string> => {
  const file = join(dir, 'input.json');
  writeFileSync(file, raw ?? JSON.stringify(value));
  return (await run('python3', [helper, 'jcs', file])).stdout;
};

/** A double from random bits: every exponent range, subnormals included (NaN/Infinity skipped: not JSON). */
const randomDouble = (): number => {
  const view = new DataView(new ArrayBuffer(8));
  for (;;) {
    view.setUint32(0, Math.floor(Math.random() * 2 ** 32));
    view.setUint32(4, Math.floor(Math.random() * 2 ** 32));
    const value = view.getFloat64(0);
    if (Number.isFinite(value)) return value;
  }
};

// The script's canonicaliser is Python; the product's is TypeScript: they must agree.
const missing = missingTools('the verify-offline.sh JCS tests', ['python3']);

describe.skipIf(missing !== null)('verify-offline.sh canonical JSON (RFC 8785)', () => {
  it('matches the RFC 8785 examples (section 3.2.3 sorting, appendix B numbers)', async () => {
    const sorting = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(await pythonJcs(sorting)).toBe(jcs(sorting));
    expect(await pythonJcs(sorting)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    const numbers = [
      0, -0, 5e-324, -5e-324, 1.7976931348623157e308, 9007199254740992, 9007199254740994, 295147905179352830000, 1e21, 1e-7, 0.000001,
      333333333.3333333, 1e23, 4.5, 2e-3, 1e-6,
    ];
    expect(await pythonJcs(numbers)).toBe(
      '[0,0,5e-324,-5e-324,1.7976931348623157e+308,9007199254740992,9007199254740994,295147905179352830000,1e+21,1e-7,0.000001,333333333.3333333,1e+23,4.5,0.002,0.000001]',
    );
    const strings = { escapes: '\u0000\u0007\b\t\n\f\r"\\/\u001f\u007f', unicode: '\u00e9\u2028\ud834\udd1e' };
    expect(await pythonJcs(strings)).toBe(jcs(strings));
  });

  it('agrees with the product JCS on 5,000 random doubles and nested objects', async () => {
    const doubles = Array.from({ length: 5000 }, randomDouble);
    expect(await pythonJcs(doubles)).toBe(jcs(doubles));
    const nested = { b: [1.5, { z: 'x', a: null, A: true }], a: { '10': 1, '9': 2, é: 3 } };
    expect(await pythonJcs(nested)).toBe(jcs(nested));
    // An integer literal beyond 2^53 is a double to JSON parsers (and to ECMAScript): exponent form.
    const bigInteger = '[123456789012345678901234567890,-9007199254740993]';
    expect(await pythonJcs(null, bigInteger)).toBe(jcs(JSON.parse(bigInteger)));
  });
});
