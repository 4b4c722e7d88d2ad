/**
 * Issue 13 (PII): each recognizer class checked against its format's own rules. IP verdicts are compared with
 * Python's `ipaddress` (another implementation); letter sets are enumerated letter by letter and position by
 * position from the DVLA / Motorizzazione / ISO 13616 rules.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { missingTools } from '../test-support/tools.ts';
import { createPiiEngine } from './engine.ts';
import { int, pick, seededRng } from './test/generators.ts';

const engine = createPiiEngine();
const hits = (text: string, entity: string, language = 'en'): string[] =>
  engine.scan(text, { language, entities: [entity] }).entities.map((f) => [...text].slice(f.start, f.end).join(''));
const ALPHABET = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

describe('IP_ADDRESS', () => {
  it.each([
    ['IPv4-mapped IPv6', 'from ::ffff:192.0.2.1 today', '::ffff:192.0.2.1'],
    ['IPv4-embedded (NAT64)', 'via 64:ff9b::192.0.2.33.', '64:ff9b::192.0.2.33'],
    ['IPv4 CIDR', 'route 10.0.0.0/24, then', '10.0.0.0/24'],
    ['IPv6 CIDR', 'prefix 2001:db8::/32 assigned', '2001:db8::/32'],
    ['IPv4 with a port', 'http://10.1.1.1:8080/x', '10.1.1.1'],
    ['IPv4 after a colon', 'host:10.0.0.1 up', '10.0.0.1'],
    ['zone index', 'link fe80::1%eth0 up', 'fe80::1%eth0'],
    ['an out-of-range prefix is not a prefix', 'bad 10.0.0.1/33 net', '10.0.0.1'],
  ])('%s is matched whole', (_label, text, expected) => {
    expect(hits(text, 'IP_ADDRESS')).toEqual([expected]);
  });

  it.each([
    ['a longer dotted token', 'version 1.2.3.4.5 shipped'],
    ['inside a word', 'tag v1.2.3.4a shipped'],
    ['an invalid embedded octet', 'bad ::ffff:999.0.2.1 here'],
    ['an invalid last embedded octet', 'bad ::ffff:1.2.3.256 here'],
    ['an octet over 255', 'bad 256.1.1.1 here'],
  ])('%s gives no match', (_label, text) => {
    expect(hits(text, 'IP_ADDRESS')).toEqual([]);
  });

  const noPython = missingTools("the IP_ADDRESS comparison with Python's ipaddress", ['python3']);
  it.skipIf(noPython !== null)("agrees with Python's ipaddress.ip_interface on 400 generated candidates", () => {
    const rng = seededRng(13);
    const octet = () => String(pick(rng, [int(rng, 0, 255), int(rng, 0, 255), int(rng, 256, 999)]));
    const v4 = () => [octet(), octet(), octet(), octet()].join('.');
    const prefix = (max: number) => (rng() < 0.4 ? `/${int(rng, 0, max + 8)}` : '');
    const candidates = Array.from({ length: 400 }, () =>
      pick(rng, [
        () => `${v4()}${prefix(32)}`,
        () => `::ffff:${v4()}`,
        () => `64:ff9b::${v4()}`,
        () => `2001:db8:${int(rng, 0, 0xffff).toString(16)}::${int(rng, 1, 0xfff).toString(16)}${prefix(128)}`,
      ])(),
    );
    const script = [
      'import ipaddress, json, sys',
      'out = []',
      'for c in json.load(sys.stdin):',
      '    try: ipaddress.ip_interface(c); out.append(True)',
      '    except ValueError: out.append(False)',
      'print(json.dumps(out))',
    ].join('\n');
    const addresses = candidates.map((c) => c.split('/')[0] ?? '');
    const verdictsOf = (list: string[]) =>
      JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(list) }).toString()) as boolean[];
    const [whole, bare] = [verdictsOf(candidates), verdictsOf(addresses)];
    let valid = 0;
    for (const [i, candidate] of candidates.entries()) {
      const found = hits(`addr ${candidate} end`, 'IP_ADDRESS');
      // Valid interface: matched whole. Valid address with a prefix Python refuses: the address alone. Else nothing.
      const expected = whole[i] ? [candidate] : bare[i] ? [addresses[i]] : [];
      if (whole[i]) valid++;
      expect(found, candidate).toEqual(expected);
    }
    expect(valid).toBeGreaterThan(100);
  });
});

describe('UK_VEHICLE_REGISTRATION (DVLA letter sets)', () => {
  const plate = (text: string) => hits(`car ${text} parked`, 'UK_VEHICLE_REGISTRATION');
  it('current format: no I, Q, Z in the memory tag; no I, Q in the random letters (Z allowed)', () => {
    for (const letter of ALPHABET) {
      const tagOk = !'IQZ'.includes(letter);
      const randomOk = !'IQ'.includes(letter);
      expect(plate(`${letter}B51 ABC`).length > 0, `${letter} first`).toBe(tagOk);
      expect(plate(`A${letter}51 ABC`).length > 0, `${letter} second`).toBe(tagOk);
      expect(plate(`AB51 AB${letter}`).length > 0, `${letter} random`).toBe(randomOk);
    }
  });
  it('current format: age identifier 02–29 or 51–79 only', () => {
    expect(plate('AB02 CDE')).toEqual(['AB02 CDE']);
    expect(plate('AB79 CDE')).toEqual(['AB79 CDE']);
    expect(plate('AB01 CDE')).toEqual([]);
    expect(plate('AB50 CDE')).toEqual([]);
    expect(plate('AB80 CDE')).toEqual([]);
  });
  it('prefix and suffix formats: year letter never I, O, Q, U, Z; serial never starts with 0', () => {
    for (const letter of ALPHABET) {
      const ok = !'IOQUZ'.includes(letter);
      expect(plate(`${letter}123 ABC`).length > 0, `${letter} prefix`).toBe(ok);
      expect(plate(`ABC 123${letter}`).length > 0, `${letter} suffix`).toBe(ok);
    }
    expect(plate('A012 BCD')).toEqual([]);
  });
});

describe('IT_DRIVER_LICENSE', () => {
  const licence = (text: string) => hits(`patente ${text} rilasciata`, 'IT_DRIVER_LICENSE', 'it');
  it('card format U1 + 7 characters never A, I, O, Q, V + a letter', () => {
    for (const letter of ALPHABET) {
      const ok = !'AIOQV'.includes(letter);
      expect(licence(`U1${letter}234567X`).length > 0, letter).toBe(ok);
    }
    expect(licence('U1234567X')).toEqual([]);
    expect(licence('U12345678X')).toEqual(['U12345678X']);
  });
  it('paper format: two letters, seven digits, a letter', () => {
    expect(licence('RM1234567X')).toEqual(['RM1234567X']);
    expect(licence('RM123456X')).toEqual([]);
  });
});

describe('IBAN_CODE case (ISO 13616 capitals)', () => {
  it('needs an upper-case country code; lower-case bank letters keep 0.5; all capitals validate to 1.0', () => {
    const score = (text: string) => engine.scan(`to ${text} now`, { entities: ['IBAN_CODE'] }).entities[0]?.score;
    expect(score('GB82 WEST 1234 5698 7654 32')).toBe(1);
    expect(score('GB82 west 1234 5698 7654 32')).toBe(0.5);
    expect(score('gb82 WEST 1234 5698 7654 32')).toBeUndefined();
    expect(score('gb82west12345698765432')).toBeUndefined();
  });
  it('bank-code letters only where the country format has letters', () => {
    const score = (text: string) => engine.scan(`to ${text} now`, { entities: ['IBAN_CODE'] }).entities[0]?.score;
    // GB: 4 letters then 14 digits; a digit where the bank letters go fails even with valid check digits.
    expect(score('GB33 W3ST 1234 5698 7654 32')).toBeUndefined();
  });
});

describe('IN_VEHICLE_REGISTRATION (Presidio shapes)', () => {
  const plate = (text: string) => hits(`vehicle ${text} seen`, 'IN_VEHICLE_REGISTRATION');
  it.each([
    ['state + RTO + series', 'MH 12 AB 1234', 'MH 12 AB 1234'],
    ['Bharat series', '22 BH 1234 AA', '22 BH 1234 AA'],
    ['armed forces', '15B123456K', '15B123456K'],
    ['diplomatic', '77 CD 12', '77 CD 12'],
    ['weak: 3 letters + 4 digits', 'DLA1234', 'DLA1234'],
    ['very weak: letter + 1-3 digits', 'A123', 'A123'],
    ['very weak: I + 5 digits + letter', 'I12345K', 'I12345K'],
  ])('%s', (_label, text, expected) => {
    expect(plate(text)).toContain(expected);
  });
  it.each([['A012'], ['AB0123'], ['I00000K'], ['ABC0000'], ['00B123456K'], ['MH12AB0000'], ['12BH1234AA']])('%s is not a plate', (text) => {
    expect(plate(text)).toEqual([]);
  });
});
