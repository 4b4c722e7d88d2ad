import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { jcs } from './chain.ts';

describe('RFC 8785 canonical JSON', () => {
  it('orders keys by UTF-16 code units (RFC 8785 3.2.3 example)', () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    ) as Record<string, string>;
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const expected = `{${order.map((key) => `${JSON.stringify(key)}:${JSON.stringify(input[key])}`).join(',')}}`;
    expect(jcs(input)).toBe(expected);
    expect(canonicalize(input)).toBe(expected);
  });

  it.each([
    ['1e30', '1e+30'],
    ['4.50', '4.5'],
    ['2e-3', '0.002'],
    ['0.000000000000000000000000001', '1e-27'],
    ['-0', '0'],
    ['333333333.33333329', '333333333.3333333'],
    ['1E+21', '1e+21'],
    ['1E+20', '100000000000000000000'],
  ])('serialises the number %s as %s (ECMAScript)', (text, expected) => {
    expect(jcs(JSON.parse(text))).toBe(expected);
  });

  it('escapes strings as RFC 8785 3.2.2.2 prescribes (RFC example) and agrees with the canonicalize package', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    const expected =
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    expect(jcs(input)).toBe(expected);
    expect(canonicalize(input)).toBe(expected);
    const mixed = { b: [1, { z: 'é', a: '\u2028' }], a: { '10': 1, '9': 2, __proto__x: null }, '\ud800\udc00': -1.5e-7 };
    expect(jcs(mixed)).toBe(canonicalize(mixed));
  });
});
